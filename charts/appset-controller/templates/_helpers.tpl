{{/* Name of the chart, overridable. */}}
{{- define "appset.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Full name of the release's objects. */}}
{{- define "appset.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Name of cluster-scoped objects: unique per release and namespace. */}}
{{- define "appset.clusterName" -}}
{{- printf "%s-%s" (include "appset.fullname" .) .Release.Namespace | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels on every object. */}}
{{- define "appset.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "appset.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: appset-controller
{{- end -}}

{{/* Labels selecting the controller's pods. */}}
{{- define "appset.selectorLabels" -}}
app.kubernetes.io/name: {{ include "appset.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: controller
{{- end -}}

{{/* Labels selecting the bundled Redis pod. */}}
{{- define "appset.redisSelectorLabels" -}}
app.kubernetes.io/name: {{ include "appset.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: redis
{{- end -}}

{{/* The controller's ServiceAccount. */}}
{{- define "appset.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "appset.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- required "serviceAccount.name is required when serviceAccount.create is false" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* The controller's own namespace (--namespace). */}}
{{- define "appset.controllerNamespace" -}}
{{- default .Release.Namespace .Values.controller.namespace -}}
{{- end -}}

{{/* The image reference: the digest wins over the tag. */}}
{{- define "appset.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}
{{- end -}}

{{/* Name of the bundled Redis' objects. */}}
{{- define "appset.redisName" -}}
{{- printf "%s-redis" (include "appset.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Name of the webhook Secret, or "" when there is none. */}}
{{- define "appset.webhookSecretName" -}}
{{- if .Values.webhook.createSecret -}}
{{- default (printf "%s-webhook" (include "appset.fullname" .)) .Values.webhook.secretName -}}
{{- else -}}
{{- .Values.webhook.secretName -}}
{{- end -}}
{{- end -}}

{{/* "true" when tenants' namespaces are watched (the controller then watches cluster-wide). */}}
{{- define "appset.clusterWide" -}}
{{- if gt (len .Values.controller.applicationSetNamespaces) 0 -}}true{{- end -}}
{{- end -}}

{{/* "true" when a tenant namespace entry is a glob or /regexp/, not a name, so writes cannot be granted per namespace. */}}
{{- define "appset.tenantGlobs" -}}
{{- range .Values.controller.applicationSetNamespaces -}}
{{- if not (regexMatch "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$" .) -}}true{{- end -}}
{{- end -}}
{{- end -}}

{{/* Namespaces that get a writer Role: the controller's own and each literal tenant namespace. */}}
{{- define "appset.writerNamespaces" -}}
{{- $namespaces := list (include "appset.controllerNamespace" .) -}}
{{- range .Values.controller.applicationSetNamespaces -}}
{{- $namespaces = append $namespaces . -}}
{{- end -}}
{{- $namespaces | uniq | toJson -}}
{{- end -}}
