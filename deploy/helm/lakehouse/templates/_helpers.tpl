{{/* Labels every object of the chart carries. */}}
{{- define "lakehouse.labels" -}}
app.kubernetes.io/part-of: lakehouse
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/instance: {{ .Release.Name }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end }}

{{/* Selector labels of one service; call with (dict "root" $ "key" "catalog"). */}}
{{- define "lakehouse.selector" -}}
app.kubernetes.io/name: {{ .key }}-service
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- end }}

{{/* Labels of one service's objects; call with (dict "root" $ "key" "catalog"). */}}
{{- define "lakehouse.serviceLabels" -}}
{{ include "lakehouse.labels" .root }}
app.kubernetes.io/name: {{ .key }}-service
app.kubernetes.io/component: {{ .key }}
app.kubernetes.io/version: {{ include "lakehouse.tag" .root | quote }}
{{- end }}

{{- define "lakehouse.tag" -}}
{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end }}

{{/* One service's settings: defaults merged under its own entry (the entry wins). */}}
{{- define "lakehouse.settings" -}}
{{- $s := mergeOverwrite (deepCopy .root.Values.defaults) (deepCopy .svc) -}}
{{- toYaml $s -}}
{{- end }}

{{/* Name of the ClusterRole/ClusterRoleBinding of a service (cluster-scoped: prefixed by the release). */}}
{{- define "lakehouse.clusterRoleName" -}}
{{ .root.Release.Name }}-{{ .key }}-service
{{- end }}

{{- define "lakehouse.dbSecret" -}}
{{ .root.Values.postgresql.credentialsSecretPrefix }}{{ .key }}
{{- end }}

{{/* host:port of PostgreSQL: the external server or the CloudNativePG read-write Service. */}}
{{- define "lakehouse.pgHostPort" -}}
{{- if eq .Values.postgresql.mode "cnpg" -}}
{{ .Release.Name }}-postgres-rw:5432
{{- else if eq .Values.postgresql.mode "external" -}}
{{ required "postgresql.external.host is required" .Values.postgresql.external.host }}:{{ .Values.postgresql.external.port }}
{{- else -}}
{{ fail (printf "postgresql.mode must be external or cnpg, not %q" .Values.postgresql.mode) }}
{{- end -}}
{{- end }}

{{- define "lakehouse.kafkaBootstrap" -}}
{{- if eq .Values.kafka.mode "strimzi" -}}
{{ .Release.Name }}-kafka-kafka-bootstrap:9092
{{- else if eq .Values.kafka.mode "external" -}}
{{ required "kafka.bootstrapServers is required" .Values.kafka.bootstrapServers }}
{{- else -}}
{{ fail (printf "kafka.mode must be external or strimzi, not %q" .Values.kafka.mode) }}
{{- end -}}
{{- end }}

{{/* The URL parameters of a service's connection: its schema first, then postgresql.external.params. */}}
{{- define "lakehouse.pgParams" -}}
{{- $extra := "" -}}
{{- if and (eq .root.Values.postgresql.mode "external") .root.Values.postgresql.external.params -}}
{{- $extra = printf "&%s" .root.Values.postgresql.external.params -}}
{{- end -}}
{{ .param }}={{ .key }}{{ $extra }}
{{- end }}

{{/* A Secret's value that is generated once: the live value when the Secret exists, else random. */}}
{{- define "lakehouse.keepOrRandom" -}}
{{- $live := lookup "v1" "Secret" .namespace .name -}}
{{- if and $live $live.data (hasKey $live.data .dataKey) -}}
{{ index $live.data .dataKey }}
{{- else -}}
{{ .random | b64enc }}
{{- end -}}
{{- end }}

{{/* common's lakehouse.cluster.* settings, the same for every service. */}}
{{- define "lakehouse.clusterEnv" -}}
{{- $c := .Values.cluster -}}
- {name: LAKEHOUSE_CLUSTER_DOMAIN, value: {{ required "cluster.domain is required" $c.domain | quote }}}
- {name: LAKEHOUSE_CLUSTER_INGRESS_CLASS, value: {{ $c.ingressClass | quote }}}
- {name: LAKEHOUSE_CLUSTER_OIDC_ISSUER, value: {{ .Values.keycloak.issuer | quote }}}
- {name: LAKEHOUSE_CLUSTER_INGRESS_CONTROLLER_NAMESPACE, value: {{ $c.ingressController.namespace | quote }}}
- {name: LAKEHOUSE_CLUSTER_INGRESS_CONTROLLER_POD_LABELS, value: {{ $c.ingressController.podLabels | quote }}}
{{- with $c.tlsSecret }}
- {name: LAKEHOUSE_CLUSTER_TLS_SECRET, value: {{ . | quote }}}
{{- end }}
{{- with $c.storageClass }}
- {name: LAKEHOUSE_CLUSTER_STORAGE_CLASS, value: {{ . | quote }}}
{{- end }}
{{- with $c.imagePullSecret }}
- {name: LAKEHOUSE_CLUSTER_IMAGE_PULL_SECRET, value: {{ . | quote }}}
{{- end }}
{{- if $c.s3ChecksumWhenRequired }}
- {name: LAKEHOUSE_CLUSTER_S3_CHECKSUM_WHEN_REQUIRED, value: "true"}
{{- end }}
{{- with $c.caBundle }}
{{- if .pem }}
{{- /* The text itself: a new bundle changes the pod template, so helm upgrade restarts the services. */}}
- {name: LAKEHOUSE_CLUSTER_CA_BUNDLE, value: {{ .pem | quote }}}
{{- else if .configMap }}
- {name: LAKEHOUSE_CLUSTER_CA_BUNDLE, valueFrom: {configMapKeyRef: {name: {{ .configMap | quote }}, key: {{ .key | default "ca.crt" | quote }}}}}
{{- end }}
{{- end }}
{{- range $name, $image := $c.images }}
{{- if and $image (not (has $name (include "lakehouse.engineImages" . | splitList " "))) }}
- {name: {{ printf "LAKEHOUSE_CLUSTER_IMAGES_%s" ($name | snakecase | upper) }}, value: {{ $image | quote }}}
{{- end }}
{{- end }}
{{- end }}

{{/* The keys of cluster.images that engines-service reads (lakehouse.engines.images.*); the others are common's. */}}
{{- define "lakehouse.engineImages" -}}
trino sparkConnect mlflow nifi tlsProxy
{{- end }}

{{/* What only one service reads; call with (dict "root" $ "key" "access"). */}}
{{- define "lakehouse.serviceEnv" -}}
{{- $v := .root.Values -}}
{{- if has .key (list "engines" "notebooks") }}
{{- /* Both put instances behind the gateway: the same forward-auth and sign-in settings. */}}
{{- $prefix := printf "LAKEHOUSE_%s" (upper .key) }}
- {name: {{ $prefix }}_FORWARD_AUTH_URL, value: {{ $v.cluster.forwardAuthUrl | default (printf "http://access-service.%s.svc:%d/api/v1/authz" .root.Release.Namespace (int $v.services.access.port)) | quote }}}
{{- with $v.cluster.signInUrl }}
- {name: {{ $prefix }}_SIGN_IN_URL, value: {{ . | quote }}}
{{- end }}
{{- end }}
{{- if eq .key "engines" }}
{{- if not $v.cluster.images.sparkConnect }}
- {name: LAKEHOUSE_ENGINES_IMAGES_SPARK_CONNECT, value: {{ printf "%s/spark-iceberg:4.0.1-iceberg1.10.1" $v.image.registry | quote }}}
{{- end }}
{{- with $v.cluster.sparkPackages }}
- {name: LAKEHOUSE_ENGINES_SPARK_PACKAGES, value: {{ . | quote }}}
{{- end }}
{{- $engineImages := include "lakehouse.engineImages" .root | splitList " " }}
{{- range $name, $image := $v.cluster.images }}
{{- if and $image (has $name $engineImages) }}
- {name: {{ printf "LAKEHOUSE_ENGINES_IMAGES_%s" ($name | snakecase | upper) }}, value: {{ $image | quote }}}
{{- end }}
{{- end }}
{{- end }}
{{- if eq .key "notebooks" }}
{{- $n := $v.cluster.notebookImages }}
{{- with $n.server }}
- {name: LAKEHOUSE_NOTEBOOKS_DEFAULT_IMAGE, value: {{ . | quote }}}
{{- end }}
{{- with $n.serverTag }}
- {name: LAKEHOUSE_NOTEBOOKS_DEFAULT_VERSION, value: {{ . | quote }}}
{{- end }}
{{- with $n.hub }}
- {name: LAKEHOUSE_NOTEBOOKS_IMAGES_HUB, value: {{ . | quote }}}
{{- end }}
{{- with $n.proxy }}
- {name: LAKEHOUSE_NOTEBOOKS_IMAGES_PROXY, value: {{ . | quote }}}
{{- end }}
{{- else if eq .key "access" }}
- {name: LAKEHOUSE_KEYCLOAK_URL, value: {{ required "keycloak.url is required" $v.keycloak.url | quote }}}
- {name: LAKEHOUSE_KEYCLOAK_REALM, value: {{ $v.keycloak.realm | quote }}}
- {name: LAKEHOUSE_KEYCLOAK_CLIENT_ID, value: {{ $v.keycloak.adminClient.clientId | quote }}}
- name: LAKEHOUSE_KEYCLOAK_CLIENT_SECRET
  valueFrom: {secretKeyRef: {name: {{ required "keycloak.adminClient.existingSecret is required" $v.keycloak.adminClient.existingSecret }}, key: client-secret}}
{{- else if eq .key "sparkjobs" }}
{{- with $v.cluster.sparkJobImages.git }}
- {name: SPARK_JOB_GIT_IMAGE, value: {{ . | quote }}}
{{- end }}
{{- with $v.cluster.sparkJobImages.s3 }}
- {name: SPARK_JOB_S3_IMAGE, value: {{ . | quote }}}
{{- end }}
{{- end }}
{{- end }}
