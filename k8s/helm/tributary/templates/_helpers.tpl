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

{{/*
An object of the cluster as JSON ("{}" when there is none, and always under helm template, which has no cluster):
lookup in one place, so that deploy-tests can stand in for the cluster. dict "root" . "kind" "Secret" "name" ...
*/}}
{{- define "tributary.existing" -}}
{{- toJson (lookup "v1" .kind .root.Release.Namespace .name | default dict) -}}
{{- end }}

{{/* One byte (0..255) as a string, through base64: Go templates have no other way to write one. */}}
{{- define "tributary.byte" -}}
{{- $alphabet := "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/" -}}
{{- $high := div . 4 | int -}}
{{- $low := mul (mod . 4) 16 | int -}}
{{- printf "%s%s==" (substr $high (add1 $high | int) $alphabet) (substr $low (add1 $low | int) $alphabet) | b64dec -}}
{{- end }}

{{/*
The PKCS#1 RSA key of genSignedCert (BEGIN RSA PRIVATE KEY) as the unencrypted PKCS#8 key (BEGIN PRIVATE KEY) the
transport nodes read (MQTT_TLS_KEY refuses PKCS#1): PrivateKeyInfo {version 0, rsaEncryption, the PKCS#1 key}.
*/}}
{{- define "tributary.pkcs8" -}}
{{- $der := . | replace "-----BEGIN RSA PRIVATE KEY-----" "" | replace "-----END RSA PRIVATE KEY-----" "" | nospace | b64dec -}}
{{- $n := len $der -}}
{{- if or (lt $n 256) (gt $n 65000) }}{{ fail "unexpected RSA key size from genSignedCert" }}{{ end -}}
{{- $outer := add $n 22 -}}
{{- $info := printf "\x30\x82%s%s\x02\x01\x00\x30\x0d\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01\x05\x00\x04\x82%s%s%s"
      (include "tributary.byte" (div $outer 256)) (include "tributary.byte" (mod $outer 256))
      (include "tributary.byte" (div $n 256)) (include "tributary.byte" (mod $n 256)) $der -}}
-----BEGIN PRIVATE KEY-----
{{ regexFindAll ".{1,64}" (b64enc $info) -1 | join "\n" }}
-----END PRIVATE KEY-----
{{ end }}

{{/* The names the generated MQTT certificate carries: the transport Services, transport.tls.dnsNames, the NLB's. */}}
{{- define "tributary.tlsNames" -}}
{{- $ns := .Release.Namespace -}}
{{- $names := list -}}
{{- range $service := list "transport-mqtt" "transport-headless" }}
{{- $names = concat $names (list $service (printf "%s.%s" $service $ns) (printf "%s.%s.svc" $service $ns) (printf "%s.%s.svc.cluster.local" $service $ns)) -}}
{{- end }}
{{- $names = concat $names (list (printf "*.transport-headless.%s.svc" $ns) (printf "*.transport-headless.%s.svc.cluster.local" $ns)) -}}
{{- $names = concat $names (.Values.transport.tls.dnsNames | default (list)) -}}
{{- $nlb := include "tributary.existing" (dict "root" . "kind" "Service" "name" "transport-mqtt") | fromJson -}}
{{- range (dig "status" "loadBalancer" "ingress" (list) $nlb) }}
{{- with .hostname }}{{ $names = append $names . }}{{ end -}}
{{- end }}
{{- $names | uniq | toJson -}}
{{- end }}
