{{/*
What operators read besides /q/metrics, the same for every service. Logs: JSON on the console (one object
a line: timestamp, level, loggerName, message, mdc with traceId/spanId, exception) is what log collectors
parse; the services' own default is plain text (local stack, tests). Traces: OpenTelemetry over OTLP to
observability.tracing.endpoint; without an endpoint the SDK stays off (the services' default).
*/}}
{{- define "lakehouse.observabilityEnv" -}}
{{- $o := .Values.observability -}}
- {name: QUARKUS_LOG_CONSOLE_JSON_ENABLED, value: {{ $o.jsonLogs | quote }}}
{{- with $o.tracing.endpoint }}
- {name: QUARKUS_OTEL_SDK_DISABLED, value: "false"}
- {name: QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT, value: {{ . | quote }}}
- {name: QUARKUS_OTEL_TRACES_SAMPLER, value: parentbased_traceidratio}
- {name: QUARKUS_OTEL_TRACES_SAMPLER_ARG, value: {{ $o.tracing.sampleRatio | toString | quote }}}
{{- else }}
- {name: QUARKUS_OTEL_SDK_DISABLED, value: "true"}
{{- end }}
{{- end }}
