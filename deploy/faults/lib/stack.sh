# shellcheck shell=bash disable=SC2034 # variables shared with the other files of deploy/faults
# The fault suite's own stack, beside (never instead of) a running one: state in $LAKEHOUSE_HOME/faults,
# database lakehouse_faults (recreated each run), its own local Kubernetes API behind the fault proxy,
# the services from their fast-jars on their own ports (two replicas each: NAME and NAME2) and Kafka
# consumer groups of their own. PostgreSQL and Kafka are the outer stack's (the PostgreSQL and Kafka
# scenarios stop and start them).

FX_PG_DB=lakehouse_faults
FX_KUBE_PORT="${LAKEHOUSE_FAULTS_KUBE_PORT:-19443}"
FX_PROXY_PORT="${LAKEHOUSE_FAULTS_PROXY_PORT:-19444}"
# The services of the suite; each one's management interface (/q/health) is its API port + 1000.
FX_SERVICES="catalog engines notebooks sparkjobs access"
# The API port of every replica: NAME (the first) and NAME2 (the second), LAKEHOUSE_FAULTS_<NAME>[2]_PORT.
declare -A FX_PORTS=(
  [catalog]="${LAKEHOUSE_FAULTS_CATALOG_PORT:-19081}" [catalog2]="${LAKEHOUSE_FAULTS_CATALOG2_PORT:-19091}"
  [engines]="${LAKEHOUSE_FAULTS_ENGINES_PORT:-19082}" [engines2]="${LAKEHOUSE_FAULTS_ENGINES2_PORT:-19092}"
  [notebooks]="${LAKEHOUSE_FAULTS_NOTEBOOKS_PORT:-19083}" [notebooks2]="${LAKEHOUSE_FAULTS_NOTEBOOKS2_PORT:-19093}"
  [sparkjobs]="${LAKEHOUSE_FAULTS_SPARKJOBS_PORT:-19084}" [sparkjobs2]="${LAKEHOUSE_FAULTS_SPARKJOBS2_PORT:-19094}"
  [access]="${LAKEHOUSE_FAULTS_ACCESS_PORT:-19085}" [access2]="${LAKEHOUSE_FAULTS_ACCESS2_PORT:-19095}"
)
FX_CATALOG_PORT="${FX_PORTS[catalog]}"
FX_CATALOG2_PORT="${FX_PORTS[catalog2]}"
FX_PROXY_URL="http://127.0.0.1:${FX_PROXY_PORT}"
FX_TOOLS="${LAKEHOUSE_HOME}/tools"
FX_MARK_DIR="${LAKEHOUSE_HOME}/marks"
# Arms the relay's crash hook (lakehouse.service.outbox.halt-after-ack-file): see scenario relay-crash.
FX_RELAY_HALT_FILE="${LAKEHOUSE_HOME}/halt-relay-after-ack"
# The Kafka consumer groups of this run: faults-<run>-<service>-<channel>, from the earliest offset: a
# group that joins late (a slow start, a service started for its scenario) must not skip what came before.
FX_GROUP="faults-${RUN_ID}"

fx_log() { printf '[faults] %s\n' "$*" >&2; }

# --- database --------------------------------------------------------------------------------------

fx_psql_admin() { # DB SQL: as the admin of the outer stack
  local psql
  psql=$(pg_psql_bin) || die "no psql client found (apt-get install postgresql-client)"
  pg_parse_admin_url
  PGOPTIONS="-c client_min_messages=warning" PGPASSWORD=${PGX_PASS} "${psql}" -X -q -A -t -v ON_ERROR_STOP=1 \
    -h "${PGX_HOST}" -p "${PGX_PORT}" -U "${PGX_USER}" -d "$1" -c "$2"
}

# SQL on the suite's database; prints unaligned rows, '|' between columns.
fx_sql() { fx_psql_admin "${FX_PG_DB}" "$1"; }

# --- outer PostgreSQL and Kafka (restarted by the scenarios) ----------------------------------------

# outer FUNCTION...: runs lib functions against the outer stack (its LAKEHOUSE_HOME, its pid files).
outer() {
  env -u LAKEHOUSE_PG_ADMIN_URL LAKEHOUSE_HOME="${OUTER_HOME}" bash -c "
    set -euo pipefail
    REPO_ROOT='${REPO_ROOT}'
    source '${LIB_DIR}/common.sh'; source '${LIB_DIR}/postgres.sh'; source '${LIB_DIR}/kafka.sh'
    $*"
}

# --- Kafka helper ----------------------------------------------------------------------------------

fx_events() {
  local src="${SUITE_DIR}/FaultEvents.java"
  if [[ ! -f ${FX_TOOLS}/FaultEvents.class || ${src} -nt ${FX_TOOLS}/FaultEvents.class ]]; then
    mkdir -p "${FX_TOOLS}"
    javac -nowarn -cp "${KAFKA_LIB}/*" -d "${FX_TOOLS}" "${src}" >&2 || die "could not compile ${src}"
  fi
  kafka_tool -cp "${FX_TOOLS}:${KAFKA_LIB}/*" FaultEvents "$@"
}

# --- fault proxy -------------------------------------------------------------------------------------

fx_proxy_up() {
  local pid log="${LH_LOG_DIR}/proxy.log"
  if running_pid proxy "io.lakehouse.local.Main proxy" >/dev/null; then return 0; fi
  port_open 127.0.0.1 "${FX_PROXY_PORT}" && die "port ${FX_PROXY_PORT} is taken"
  pid=$(cd "${REPO_ROOT}" && start_bg proxy "${log}" java -Xmx128m -cp "${LOCAL_KIT_CP}" \
    io.lakehouse.local.Main proxy --port "${FX_PROXY_PORT}" --upstream "${KUBE_URL}")
  wait_port 127.0.0.1 "${FX_PROXY_PORT}" 60 "${pid}" || die "the fault proxy did not start (${log})"
}

# fx_faults [rate500=..&rate429=..&rate409=..&rate410=..&latencyMs=..]: sets the faults (none without argument).
fx_faults() {
  curl -sf -X POST "${FX_PROXY_URL}/_faults?${1:-}" >/dev/null || die "the fault proxy refused '${1:-}'"
}

fx_proxy_reset() { curl -sf -X POST "${FX_PROXY_URL}/_faults/reset" >/dev/null; }

# fx_proxy_count NAME: one counter of the proxy (requests, mutating, watches, peakPerSecond, injected500...).
fx_proxy_count() {
  curl -sf "${FX_PROXY_URL}/_faults" | jq -r --arg k "$1" '.[$k] // 0'
}

# --- service replicas -------------------------------------------------------------------------------

fx_svc() { printf '%s\n' "${1%2}"; }          # REPLICA -> service (engines2 -> engines)
fx_port() { printf '%s\n' "${FX_PORTS[$1]}"; }  # REPLICA -> API port
fx_url() { printf 'http://127.0.0.1:%s\n' "${FX_PORTS[$1]}"; }
fx_jar_marker() { printf '%s-service/target/quarkus-app/quarkus-run.jar\n' "$(fx_svc "$1")"; }

# The incoming channels of a service (application.properties): each gets a group of this run.
fx_channels() {
  sed -nE 's/^mp\.messaging\.incoming\.([a-z0-9-]+)\.group\.id=.*/\1/p' \
    "${REPO_ROOT}/$1-service/src/main/resources/application.properties" | sort -u
}

# fx_service_start REPLICA: one replica (catalog, catalog2, engines, ...) talking to the API through the proxy,
# started unless it runs; waits until it is ready.
fx_service_start() {
  local name=$1 svc port jar pid t0 ch env_ch
  svc=$(fx_svc "${name}")
  port=$(fx_port "${name}")
  [[ -n ${port} ]] || die "unknown replica ${name}"
  fx_service_pid "${name}" >/dev/null && return 0
  t0=$(now_ms)
  jar="${REPO_ROOT}/$(fx_jar_marker "${name}")"
  [[ -f ${jar} ]] || die "${jar} is missing: ./mvnw -B package -DskipTests -pl ${svc}-service -am"
  port_open 127.0.0.1 "${port}" && die "port ${port} (${name}) is taken"
  pid=$(
    cd "${REPO_ROOT}" || exit 1
    export QUARKUS_OIDC_PUBLIC_KEY
    QUARKUS_OIDC_PUBLIC_KEY=$(tr -d '[:space:]' <"${KEYS_PUBLIC_B64}")
    for ch in $(fx_channels "${svc}"); do
      env_ch=$(tr 'a-z-' 'A-Z_' <<<"${ch}")
      export "MP_MESSAGING_INCOMING_${env_ch}_GROUP_ID=${FX_GROUP}-${svc}-${ch}" \
        "MP_MESSAGING_INCOMING_${env_ch}_AUTO_OFFSET_RESET=earliest"
    done
    # the relay's crash hook: only the first catalog replica has it armed (scenario relay-crash)
    [[ ${name} == catalog ]] && export LAKEHOUSE_SERVICE_OUTBOX_HALT_AFTER_ACK_FILE="${FX_RELAY_HALT_FILE}"
    export QUARKUS_OIDC_TOKEN_ISSUER="${LH_ISSUER}" \
      QUARKUS_HTTP_PORT="${port}" \
      QUARKUS_MANAGEMENT_PORT="$((port + 1000))" \
      KUBERNETES_MASTER="${FX_PROXY_URL}" \
      KUBERNETES_TRUST_CERTIFICATES=true \
      KUBERNETES_AUTH_TRYKUBECONFIG=false \
      KUBERNETES_NAMESPACE=default \
      QUARKUS_DATASOURCE_USERNAME="${svc}" \
      QUARKUS_DATASOURCE_PASSWORD="${svc}" \
      QUARKUS_DATASOURCE_REACTIVE_URL="postgresql://$(pg_service_host):$(pg_service_port)/${FX_PG_DB}" \
      QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://$(pg_service_host):$(pg_service_port)/${FX_PG_DB}" \
      KAFKA_BOOTSTRAP_SERVERS="${KAFKA_BOOTSTRAP}" \
      LAKEHOUSE_SECRETS_KEY="$(secrets_key)" \
      LAKEHOUSE_CLUSTER_DOMAIN="${CLUSTER_DOMAIN}"
    start_bg "${name}" "${LH_LOG_DIR}/${name}.log" java -Xmx256m -jar "${jar}"
  )
  fx_wait_ready "${name}" "${port}" "${pid}" || die "${name} was not ready on :${port} (log ${LH_LOG_DIR}/${name}.log)"
  fx_log "${name}: ready on :${port} in $(elapsed_since "${t0}")"
}

fx_wait_ready() { # NAME PORT PID
  local deadline=$((SECONDS + SERVICES_READY_TIMEOUT))
  while ((SECONDS < deadline)); do
    [[ $(svc_http_code "http://127.0.0.1:$(($2 + 1000))/q/health/ready") == 200 ]] && return 0
    proc_running "$3" || return 2
    sleep 0.5
  done
  return 1
}

fx_service_pid() { running_pid "$1" "$(fx_jar_marker "$1")"; }

fx_service_kill9() { # REPLICA
  local pid
  pid=$(fx_service_pid "$1") || die "$1 is not running"
  kill -KILL "${pid}"
  while proc_running "${pid}"; do sleep 0.1; done
  rm -f "$(pid_file "$1")"
}

fx_service_stop() { stop_named "$1" "$(fx_jar_marker "$1")"; }

# Every replica of the suite, second ones first (stop order).
fx_replicas() {
  local s
  for s in ${FX_SERVICES}; do printf '%s2\n' "${s}"; done
  for s in ${FX_SERVICES}; do printf '%s\n' "${s}"; done
}

# --- HTTP -------------------------------------------------------------------------------------------

FX_CATALOG="http://127.0.0.1:${FX_CATALOG_PORT}"
# Its management interface (/q/health): the API port + 1000, as for every service (lib/services.sh).
FX_CATALOG_MGMT="http://127.0.0.1:$((FX_CATALOG_PORT + 1000))"

# api METHOD PATH [BODY]: as the platform admin (API_BASE: another replica or service); prints the HTTP
# status, the body goes to ${FX_LAST_BODY} (FX_BODY_FILE when set: calls in the background).
api() {
  local method=$1 path=$2 body=${3:-} base=${API_BASE:-${FX_CATALOG}}
  FX_LAST_BODY="${FX_BODY_FILE:-${LAKEHOUSE_HOME}/last-body.json}"
  local args=(-s -o "${FX_LAST_BODY}" -w '%{http_code}' --max-time "${API_TIMEOUT:-20}" -X "${method}"
    -H "Authorization: Bearer ${ADMIN}")
  [[ -n ${body} ]] && args+=(-H 'Content-Type: application/json' -d "${body}")
  # curl prints 000 itself when no answer came
  curl "${args[@]}" "${base}${path}" || true
  # every answer is kept: the canary check reads them all
  { cat "${FX_LAST_BODY}" 2>/dev/null; printf '\n'; } >>"${LAKEHOUSE_HOME}/api-responses.log"
}

catalog_body() { # NAME
  jq -cn --arg n "$1" --arg k "${CANARY}" \
    '{name: $n, spec: {storage: {bucket: "warehouse", endpoint: "http://minio.storage.svc:9000",
      region: "us-east-1", accessKeyId: "AKIA-FAULTS", secretAccessKey: $k}}}'
}

# create_catalog NS NAME: expects 201.
create_catalog() {
  local code
  code=$(api POST "/api/v1/namespaces/$1/instances/iceberg-catalog" "$(catalog_body "$2")")
  [[ ${code} == 201 ]] || { fx_log "create $1/$2: HTTP ${code}: $(head -c 400 "${FX_LAST_BODY}")"; return 1; }
}

# --- waiting ------------------------------------------------------------------------------------------

# await SECONDS COMMAND...: polls COMMAND every 200 ms; prints the milliseconds it took; fails after SECONDS.
await() {
  local limit=$1 t0
  shift
  t0=$(now_ms)
  while ! "$@" 2>/dev/null; do
    if (($(now_ms) - t0 > limit * 1000)); then
      printf '%d\n' $(($(now_ms) - t0))
      return 1
    fi
    sleep 0.2
  done
  printf '%d\n' $(($(now_ms) - t0))
}

# --- Kubernetes API (direct, not through the proxy) -------------------------------------------------

# The kinds the services write, as API paths below /namespaces/NS.
FX_KINDS="api/v1:configmaps api/v1:secrets api/v1:services api/v1:serviceaccounts api/v1:persistentvolumeclaims
  apps/v1:deployments apps/v1:statefulsets networking.k8s.io/v1:ingresses batch/v1:jobs
  networking.k8s.io/v1:networkpolicies rbac.authorization.k8s.io/v1:roles rbac.authorization.k8s.io/v1:rolebindings
  postgresql.cnpg.io/v1:clusters"

kube_get() { curl -sf --max-time 10 "${KUBE_URL}$1"; }

kube_path() { # GROUPVERSION PLURAL [NS]
  local base="/apis/$1"
  [[ $1 == api/v1 ]] && base=/api/v1
  printf '%s%s/%s\n' "${base}" "${3:+/namespaces/$3}" "$2"
}

# Every object a service manages (SVC, default catalog), one line each: plural/namespace/name and its
# instance-uid label.
managed_objects() {
  local entry gv plural
  for entry in ${FX_KINDS}; do
    gv=${entry%%:*}
    plural=${entry##*:}
    kube_get "$(kube_path "${gv}" "${plural}")?labelSelector=app.kubernetes.io%2Fmanaged-by%3D${1:-catalog}-service" 2>/dev/null |
      jq -r --arg p "${plural}" '.items[]? | [$p + "/" + .metadata.namespace + "/" + .metadata.name,
        (.metadata.labels["lakehouse.io/instance-uid"] // "-")] | @tsv'
  done | sort
}
