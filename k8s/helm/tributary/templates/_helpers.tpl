{{/* Labels of every object of a component: its name (the selector) and the release. */}}
{{- define "tributary.labels" -}}
app.kubernetes.io/name: {{ .name }}
app.kubernetes.io/part-of: tributary
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" | quote }}
{{- end }}

{{/* Labels of the pods of a component (no chart version: a chart upgrade alone does not restart pods). */}}
{{- define "tributary.podLabels" -}}
app.kubernetes.io/name: {{ .name }}
app.kubernetes.io/part-of: tributary
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- end }}

{{- define "tributary.image" -}}
{{ .root.Values.image.repository }}/{{ .service }}:{{ .root.Values.image.tag | default .root.Chart.AppVersion }}
{{- end }}

{{/* KAFKA_BOOTSTRAP_SERVERS: the managed brokers, or the in-cluster bootstrap Service. */}}
{{- define "tributary.kafkaBootstrap" -}}
{{- if .Values.kafka.bootstrapServers -}}
{{ .Values.kafka.bootstrapServers }}
{{- else if .Values.dataStores.enabled -}}
kafka-bootstrap:9092
{{- else -}}
{{ fail "kafka.bootstrapServers is required when dataStores.enabled is false (values-aws-managed.yaml)" }}
{{- end }}
{{- end }}

{{- define "tributary.postgresUrl" -}}
{{- if .Values.postgres.url -}}
{{ .Values.postgres.url }}
{{- else if .Values.dataStores.enabled -}}
jdbc:postgresql://postgres:5432/{{ .Values.dataStores.postgres.database }}
{{- else -}}
{{ fail "postgres.url is required when dataStores.enabled is false (values-aws-managed.yaml)" }}
{{- end }}
{{- end }}

{{- define "tributary.redisUrl" -}}
{{- if .Values.redis.url -}}
{{ .Values.redis.url }}
{{- else if .Values.dataStores.enabled -}}
redis://:${REDIS_PASSWORD}@redis:6379
{{- else -}}
{{ fail "redis.url is required when dataStores.enabled is false (values-aws-managed.yaml)" }}
{{- end }}
{{- end }}

{{/* Pod-level settings shared by the services: no API token, non-root, a node group, spread over zones. */}}
{{- define "tributary.podSecurity" -}}
automountServiceAccountToken: false
securityContext:
  runAsNonRoot: true
  runAsUser: 65532
  runAsGroup: 65532
  seccompProfile:
    type: RuntimeDefault
{{- end }}

{{- define "tributary.containerSecurity" -}}
securityContext:
  allowPrivilegeEscalation: false
  readOnlyRootFilesystem: true
  capabilities:
    drop: ["ALL"]
{{- end }}

{{/* The Actuator probes on the container's management port (MANAGEMENT_PORT). */}}
{{- define "tributary.probes" -}}
startupProbe:
  httpGet:
    path: /actuator/health/liveness
    port: management
  periodSeconds: 5
  failureThreshold: 36
livenessProbe:
  httpGet:
    path: /actuator/health/liveness
    port: management
  periodSeconds: 10
  timeoutSeconds: 3
  failureThreshold: 3
readinessProbe:
  httpGet:
    path: /actuator/health/readiness
    port: management
  periodSeconds: 5
  timeoutSeconds: 3
  failureThreshold: 2
{{- end }}

{{- define "tributary.prometheusAnnotations" -}}
prometheus.io/scrape: "true"
prometheus.io/port: {{ . | quote }}
prometheus.io/path: /actuator/prometheus
{{- end }}

{{- define "tributary.extraEnv" -}}
{{- range $name, $value := . }}
- name: {{ $name }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- end }}
