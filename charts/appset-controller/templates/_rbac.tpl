{{/* A Role (with namespace) or ClusterRole: dict root, kind, name, namespace, rules. */}}
{{- define "appset.role" }}
apiVersion: rbac.authorization.k8s.io/v1
kind: {{ .kind }}
metadata:
  name: {{ .name }}
  {{- if .namespace }}
  namespace: {{ .namespace }}
  {{- end }}
  labels:
    {{- include "appset.labels" .root | nindent 4 }}
rules:
  {{- toYaml .rules | nindent 2 }}
{{- end }}

{{/* The binding of a Role or ClusterRole of the same name to the controller's ServiceAccount. */}}
{{- define "appset.binding" }}
apiVersion: rbac.authorization.k8s.io/v1
kind: {{ .kind }}Binding
metadata:
  name: {{ .name }}
  {{- if .namespace }}
  namespace: {{ .namespace }}
  {{- end }}
  labels:
    {{- include "appset.labels" .root | nindent 4 }}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: {{ .kind }}
  name: {{ .name }}
subjects:
  - kind: ServiceAccount
    name: {{ include "appset.serviceAccountName" .root }}
    namespace: {{ .root.Release.Namespace }}
{{- end }}
