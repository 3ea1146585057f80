{{/* The controller's Redis environment variables for redis.mode (README.md, "Which Redis"). */}}
{{- define "appset.redisEnv" -}}
{{- $r := .Values.redis -}}
{{- if eq $r.mode "bundled" }}
- name: APPSET_REDIS_URL
  value: {{ printf "redis://%s:6379/0" (include "appset.redisName" .) | quote }}
- name: APPSET_REDIS_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ include "appset.redisName" . }}
      key: redis-password
{{- else if eq $r.mode "external" }}
- name: APPSET_REDIS_URL
  value: {{ required "redis.url is required with redis.mode external" $r.url | quote }}
{{- else if eq $r.mode "sentinel" }}
{{- if or (not $r.sentinels) (not $r.sentinelMaster) }}
{{- fail "redis.mode sentinel needs redis.sentinels and redis.sentinelMaster" }}
{{- end }}
- name: APPSET_REDIS_SENTINELS
  value: {{ join "," $r.sentinels | quote }}
- name: APPSET_REDIS_SENTINEL_MASTER
  value: {{ $r.sentinelMaster | quote }}
- name: APPSET_REDIS_TLS
  value: {{ $r.tls.enabled | quote }}
{{- if and $r.auth.existingSecret $r.auth.sentinelPasswordKey }}
- name: APPSET_REDIS_SENTINEL_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $r.auth.existingSecret }}
      key: {{ $r.auth.sentinelPasswordKey }}
{{- end }}
{{- end }}
{{- if and (has $r.mode (list "external" "sentinel")) $r.auth.existingSecret }}
- name: APPSET_REDIS_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $r.auth.existingSecret }}
      key: {{ $r.auth.passwordKey }}
{{- end }}
{{- if and (has $r.mode (list "external" "sentinel")) $r.tls.caSecret }}
- name: APPSET_REDIS_TLS_CA_FILE
  value: /etc/appset/redis-ca/ca.crt
{{- end }}
{{- end -}}
