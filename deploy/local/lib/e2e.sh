# shellcheck shell=bash disable=SC2034 # variables the checks read
# The prelude and helpers of the end-to-end checks in deploy/local/e2e, so that each runs beside a running
# stack without touching it: a state folder, database, local Kubernetes API, service ports and Kafka consumer
# groups of its own (every incoming channel of each service, common's lakehouse-access included), the stack
# started and stopped (also on failure), tokens, HTTP calls that keep status and body, polling.
#
# A check sets, then sources this file (which sources the rest of lib/):
#   REPO_ROOT      the repository
#   E2E_NAME       its name: state in $LAKEHOUSE_HOME/e2e-NAME, database lakehouse_e2e_NAME, log prefix
#   E2E_KUBE_PORT  its local Kubernetes API's port
#   E2E_SERVICES   its services and ports ("catalog:18081 access:18085"; management on port + 1000)
: "${REPO_ROOT:?}" "${E2E_NAME:?}" "${E2E_KUBE_PORT:?}" "${E2E_SERVICES:?}"

# The servers of the outer stack (same variables as the rest of lib/), before the run's own home is chosen.
OUTER_HOME=$(realpath -m "${LAKEHOUSE_HOME:-${REPO_ROOT}/.local}")
export LAKEHOUSE_PG_ADMIN_URL="${LAKEHOUSE_PG_ADMIN_URL:-postgresql://postgres:postgres@127.0.0.1:${LAKEHOUSE_PG_PORT:-55432}/postgres}"
export LAKEHOUSE_HOME="${OUTER_HOME}/e2e-${E2E_NAME}"
export LAKEHOUSE_KUBE_PORT="${E2E_KUBE_PORT}"
export LAKEHOUSE_KUBE_DELAY_MS=0
export LAKEHOUSE_SERVICES="${E2E_SERVICES}"
# Several services start at once: give a loaded machine more time than the default 90 s.
export LAKEHOUSE_SERVICE_READY_TIMEOUT="${LAKEHOUSE_SERVICE_READY_TIMEOUT:-180}"

# shellcheck source=common.sh
source "${REPO_ROOT}/deploy/local/lib/common.sh"
# shellcheck source=postgres.sh
source "${REPO_ROOT}/deploy/local/lib/postgres.sh"
# shellcheck source=kafka.sh
source "${REPO_ROOT}/deploy/local/lib/kafka.sh"
# shellcheck source=kube.sh
source "${REPO_ROOT}/deploy/local/lib/kube.sh"
# shellcheck source=keycloak.sh
source "${REPO_ROOT}/deploy/local/lib/keycloak.sh"
# shellcheck source=services.sh
source "${REPO_ROOT}/deploy/local/lib/services.sh"

KAFKA_LIB="${OUTER_HOME}/kafka/lib"
PG_DB="lakehouse_e2e_${E2E_NAME}"
RUN_ID="e2e-${E2E_NAME}-$(date +%s)-$$"

e2e_log() { printf '[e2e %s] %s\n' "${E2E_NAME}" "$*" >&2; }

# e2e_stack_up TOKEN_MODE: checks that the fast-jars and the outer servers are there (Kafka; Keycloak when
# TOKEN_MODE is keycloak), then starts a fresh database (a schema per service), the local Kubernetes API
# and the services on the run's consumer groups. Everything stops on exit (e2e_stop_all).
e2e_stack_up() {
  local s
  LH_TOKEN_MODE=$1
  for s in ${SERVICES}; do
    [[ -f $(svc_jar "${s}") ]] || die "$(svc_jar "${s}") is missing: build it first (./mvnw package -DskipTests)"
  done
  port_open "${KAFKA_HOST}" "${KAFKA_PORT}" || die "no Kafka on ${KAFKA_BOOTSTRAP} (lakehouse test or up starts it)"
  if [[ ${LH_TOKEN_MODE} == keycloak ]]; then
    keycloak_ready || die "no Keycloak on ${KEYCLOAK_URL} (lakehouse test or up --with-keycloak starts it)"
  fi
  ensure_dirs
  trap 'e2e_stop_all || true' EXIT
  trap 'exit 143' TERM INT
  # shellcheck disable=SC2046 # one schema per service
  pg_fresh_database "${PG_DB}" $(for s in ${SERVICES}; do svc_name "${s}"; done)
  kube_up || die "the local Kubernetes API could not start"
  e2e_start_services "${RUN_ID}"
}

# e2e_stop_all: what the check started itself (its e2e_stop_extra, when it defines one), the services and
# the local Kubernetes API.
e2e_stop_all() {
  if declare -F e2e_stop_extra >/dev/null; then
    e2e_stop_extra || true
  fi
  services_down
  kube_down
}

# e2e_token USER [GROUP...]: a bearer token of the run's token mode (Keycloak's password grant for its seeded
# users, whose groups Keycloak knows; or the local issuer, with the GROUPs given).
e2e_token() {
  if [[ ${LH_TOKEN_MODE} == keycloak ]]; then
    keycloak_token "$1"
  else
    kube_token "$@"
  fi
}

# e2e_channels SERVICE: "channel=topic[,topic...]" for each incoming Kafka channel of SERVICE, read
# from its application.properties and common's defaults (lakehouse-access is declared there; a
# channel without topic/topics reads the topic of its name).
e2e_channels() {
  local props channel topics
  props=("${REPO_ROOT}/$1-service/src/main/resources/application.properties"
    "${REPO_ROOT}/common/src/main/resources/META-INF/microprofile-config.properties")
  for channel in $(sed -n 's/^mp\.messaging\.incoming\.\([a-z-]*\)\.connector=.*/\1/p' "${props[@]}" | sort -u); do
    topics=$(sed -n "s/^mp\.messaging\.incoming\.${channel}\.topics\?=//p" "${props[@]}" | head -1)
    printf '%s=%s\n' "${channel}" "${topics:-${channel}}"
  done
}

# e2e_group RUN_ID SERVICE CHANNEL: the run's consumer group of a service's channel.
e2e_group() { printf '%s-%s-%s\n' "$1" "$2" "$3"; }

# e2e_place_groups RUN_ID SERVICE...: the run's consumer groups of every channel of the SERVICEs, placed
# at the end of their topics before the services start (one JVM: deploy/local/kafka/PlaceGroups.java).
# The services then see only the events of this run and miss none of them.
e2e_place_groups() {
  local run=$1 svc line specs=() src="${REPO_ROOT}/deploy/local/kafka/PlaceGroups.java" tools="${LAKEHOUSE_HOME}/kafka-tools"
  shift
  for svc in "$@"; do
    while IFS= read -r line; do
      specs+=("$(e2e_group "${run}" "${svc}" "${line%%=*}")=${line#*=}")
    done < <(e2e_channels "${svc}")
  done
  if [[ ! -f ${tools}/PlaceGroups.class || ${src} -nt ${tools}/PlaceGroups.class ]]; then
    mkdir -p "${tools}"
    javac -nowarn -cp "${KAFKA_LIB}/*" -d "${tools}" "${src}" >&2 || die "could not compile ${src}"
  fi
  kafka_tool -cp "${tools}:${KAFKA_LIB}/*" PlaceGroups "${KAFKA_BOOTSTRAP}" "${specs[@]}" ||
    die "could not place the consumer groups ${specs[*]}"
}

# e2e_export_groups RUN_ID SERVICE: makes SERVICE (started from this shell) use the run's groups.
e2e_export_groups() {
  local line channel
  while IFS= read -r line; do
    channel=${line%%=*}
    channel=${channel//-/_}
    export "MP_MESSAGING_INCOMING_${channel^^}_GROUP_ID=$(e2e_group "$1" "$2" "${line%%=*}")"
  done < <(e2e_channels "$2")
}

# e2e_start_services RUN_ID: starts every service of SERVICES at once on the run's consumer groups
# (placed first); fails when one does not become ready.
e2e_start_services() {
  local run=$1 s pids=() rc=0 names=()
  for s in ${SERVICES}; do names+=("$(svc_name "${s}")"); done
  e2e_place_groups "${run}" "${names[@]}"
  for s in ${SERVICES}; do
    (
      e2e_export_groups "${run}" "$(svc_name "${s}")"
      svc_start "${s}"
    ) &
    pids+=($!)
  done
  for s in "${pids[@]}"; do wait "${s}" || rc=1; done
  ((rc == 0)) || die "a service did not start (logs in ${LH_LOG_DIR})"
}

# e2e_http METHOD URL TOKEN [BODY [CONTENT_TYPE]]: prints the status code (000 when no answer); the
# body is in ${E2E_BODY}.
E2E_BODY="${LAKEHOUSE_HOME}/e2e-last-body"
e2e_http() {
  local method=$1 url=$2 token=$3 body=${4:-} type=${5:-application/json} auth=()
  [[ -n ${token} ]] && auth=(-H "Authorization: Bearer ${token}")
  curl -s -o "${E2E_BODY}" -w '%{http_code}' --max-time 20 -X "${method}" ${auth[@]+"${auth[@]}"} \
    ${body:+-H "Content-Type: ${type}"} ${body:+--data-binary "${body}"} "${url}" || true # curl prints 000 when nothing answered
}

# e2e_json EXPR: EXPR (Python, `j` = the last body parsed as JSON) printed; fails when it raises.
e2e_json() {
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); r=eval(sys.argv[2]); print(r if isinstance(r, str) else json.dumps(r))' \
    "${E2E_BODY}" "$1" 2>/dev/null
}

# e2e_await SECONDS COMMAND...: runs COMMAND every 0.25 s until it succeeds; fails after SECONDS.
e2e_await() {
  local limit=$1 deadline
  shift
  deadline=$(($(now_ms) + limit * 1000))
  until "$@"; do
    (($(now_ms) < deadline)) || return 1
    sleep 0.25
  done
}
