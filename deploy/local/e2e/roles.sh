#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR/..
# End-to-end check across services (issue "access-service", Roles): a role set through
# access-service (PUT /api/v1/namespaces/{ns}/members/{subject}) is honoured by catalog-service
# within a second, and a removed role is refused (403) within a second, for a user and for a group.
# The two services cannot share one @QuarkusTest, so this runs them from their fast-jars.
#
#   deploy/local/e2e/roles.sh        (run by `deploy/local/lakehouse test` after Maven when the jars exist)
#
# Needs PostgreSQL and Kafka running (`lakehouse test` or `lakehouse up` ensures them) and
# catalog-service/target/quarkus-app, access-service/target/quarkus-app. Leaves a running stack
# alone: state in $LAKEHOUSE_HOME/e2e (own token keys, pid files, logs), its own local Kubernetes
# API and service ports (LAKEHOUSE_E2E_KUBE_PORT 56453, LAKEHOUSE_E2E_CATALOG_PORT 18081,
# LAKEHOUSE_E2E_ACCESS_PORT 18085), its own database lakehouse_e2e (recreated each run) and its own
# Kafka consumer groups starting at the latest offset. Stops what it started, also on failure.
# LAKEHOUSE_E2E_LIMIT_MS (1000): the limit for the median propagation (the issue's "within a second");
# LAKEHOUSE_E2E_HARD_LIMIT_MS (5000): the limit for every single one. A 2-core machine saturated by
# other work sometimes delays one poll of a Kafka consumer past a second; that is reported as slow,
# a propagation that does not happen at all (or takes seconds) fails.
set -euo pipefail

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
LIB_DIR="${REPO_ROOT}/deploy/local/lib"
OUTER_HOME=$(realpath -m "${LAKEHOUSE_HOME:-${REPO_ROOT}/.local}")

# The servers of the outer stack (same variables as deploy/local/lib), before the e2e state dir is chosen.
PG_ADMIN_URL="${LAKEHOUSE_PG_ADMIN_URL:-postgresql://postgres:postgres@127.0.0.1:${LAKEHOUSE_PG_PORT:-55432}/postgres}"
export LAKEHOUSE_HOME="${OUTER_HOME}/e2e"
export LAKEHOUSE_PG_ADMIN_URL="${PG_ADMIN_URL}"
export LAKEHOUSE_KUBE_PORT="${LAKEHOUSE_E2E_KUBE_PORT:-56453}"
export LAKEHOUSE_KUBE_DELAY_MS=0
export LAKEHOUSE_SERVICES="catalog:${LAKEHOUSE_E2E_CATALOG_PORT:-18081} access:${LAKEHOUSE_E2E_ACCESS_PORT:-18085}"
LIMIT_MS="${LAKEHOUSE_E2E_LIMIT_MS:-1000}"
HARD_LIMIT_MS="${LAKEHOUSE_E2E_HARD_LIMIT_MS:-5000}"
TIMES=()

# shellcheck source=lib/common.sh
source "${LIB_DIR}/common.sh"
# shellcheck source=lib/postgres.sh
source "${LIB_DIR}/postgres.sh"
# shellcheck source=lib/kafka.sh
source "${LIB_DIR}/kafka.sh"
# shellcheck source=lib/kube.sh
source "${LIB_DIR}/kube.sh"
# shellcheck source=lib/keycloak.sh
source "${LIB_DIR}/keycloak.sh"
# shellcheck source=lib/services.sh
source "${LIB_DIR}/services.sh"

PG_DB=lakehouse_e2e
CATALOG="http://127.0.0.1:$(svc_port "${SERVICES%% *}")"
ACCESS="http://127.0.0.1:$(svc_port "${SERVICES##* }")"
RUN_ID="e2e-$(date +%s)-$$"
FAILURES=0

e2e_log() { printf '[e2e roles] %s\n' "$*" >&2; }

stop_all() {
  services_down
  kube_down
}


# status CODE of GET URL with TOKEN
http_status() {
  curl -s -o /dev/null -w '%{http_code}' --max-time 5 -H "Authorization: Bearer $2" "$1" || true
}

# await_status URL TOKEN CODE LIMIT_MS: polls every 20 ms; prints the milliseconds it took, fails after LIMIT_MS.
await_status() {
  local url=$1 token=$2 want=$3 limit=$4 t0 now code
  t0=$(now_ms)
  while :; do
    code=$(http_status "${url}" "${token}")
    now=$(now_ms)
    if [[ ${code} == "${want}" ]]; then
      printf '%d\n' $((now - t0))
      (((now - t0) <= limit))
      return
    fi
    if ((now - t0 > limit)); then
      printf '%d (still %s)\n' $((now - t0)) "${code}"
      return 1
    fi
    sleep 0.02
  done
}

# set_member NS SUBJECT ROLE|"" : PUT (or DELETE when ROLE is empty) through access-service as the platform admin.
set_member() {
  local ns=$1 subject=$2 role=$3 code
  if [[ -n ${role} ]]; then
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 -X PUT -H "Authorization: Bearer ${ADMIN}" \
      -H 'Content-Type: application/json' -d "{\"role\":\"${role}\"}" "${ACCESS}/api/v1/namespaces/${ns}/members/${subject}")
    [[ ${code} == 200 || ${code} == 201 ]] || die "PUT member ${subject} in ${ns}: HTTP ${code}"
  else
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 -X DELETE -H "Authorization: Bearer ${ADMIN}" \
      "${ACCESS}/api/v1/namespaces/${ns}/members/${subject}")
    [[ ${code} == 204 || ${code} == 200 ]] || die "DELETE member ${subject} in ${ns}: HTTP ${code}"
  fi
}

# measure LABEL URL TOKEN CODE: waits for CODE (at most HARD_LIMIT_MS) and records the time it took.
measure() {
  local label=$1 url=$2 token=$3 want=$4 took
  if took=$(await_status "${url}" "${token}" "${want}" "${HARD_LIMIT_MS}"); then
    TIMES+=("${took}")
    if ((took > LIMIT_MS)); then
      e2e_log "${label} catalog-service answers ${want} after ${took} ms (slow: over ${LIMIT_MS} ms)"
    else
      e2e_log "${label} catalog-service answers ${want} after ${took} ms"
    fi
  else
    e2e_log "FAIL ${label} catalog-service did not answer ${want} within ${HARD_LIMIT_MS} ms (${took} ms)"
    FAILURES=$((FAILURES + 1))
  fi
}

# check LABEL NS SUBJECT TOKEN: role set → catalog answers 200; removed → 403.
check() {
  local label=$1 ns=$2 subject=$3 token=$4 url
  url="${CATALOG}/api/v1/namespaces/${ns}/instances/iceberg-catalog"
  [[ $(http_status "${url}" "${token}") == 403 ]] || die "${label}: catalog-service does not refuse before the role is set"
  set_member "${ns}" "${subject}" viewer
  measure "${label}: viewer set through access-service →" "${url}" "${token}" 200
  set_member "${ns}" "${subject}" ""
  measure "${label}: role removed through access-service →" "${url}" "${token}" 403
}

# median of TIMES
median_ms() {
  printf '%s\n' "${TIMES[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : int((a[NR / 2] + a[NR / 2 + 1]) / 2)}'
}

# consumer_groups SERVICE: Kafka consumer groups of their own, from the latest offset, for each
# incoming channel of the service: never take partitions from a running stack's services, never
# replay the topics' history (the timings below are steady-state ones). Only channels the service
# has: an environment variable of an unknown channel (AUDIT_FEED) would be read as channel "audit".
consumer_groups() {
  local channel channels="LAKEHOUSE_ACCESS LAKEHOUSE_INSTANCES"
  [[ $1 == access ]] && channels+=" AUDIT_FEED"
  for channel in ${channels}; do
    export "MP_MESSAGING_INCOMING_${channel}_GROUP_ID=${RUN_ID}-$1-${channel,,}"
    export "MP_MESSAGING_INCOMING_${channel}_AUTO_OFFSET_RESET=latest"
  done
}

main() {
  local t0 s pids=() rc=0 warm ns
  t0=$(now_ms)
  for s in ${SERVICES}; do
    [[ -f $(svc_jar "${s}") ]] || die "$(svc_jar "${s}") is missing: build it first (./mvnw package -DskipTests -pl $(svc_module "${s}"))"
  done
  port_open "${KAFKA_HOST}" "${KAFKA_PORT}" || die "no Kafka on ${KAFKA_BOOTSTRAP} (deploy/local/lakehouse up starts it)"
  ensure_dirs
  trap 'stop_all || true' EXIT
  pg_fresh_database "${PG_DB}" catalog access
  kube_up || die "the local Kubernetes API could not start"
  LH_TOKEN_MODE=local
  # Both services start at once (each waits for its own readiness); pid files under ${LAKEHOUSE_HOME}/run.
  for s in ${SERVICES}; do
    (
      consumer_groups "$(svc_name "${s}")"
      svc_start "${s}"
    ) &
    pids+=($!)
  done
  for s in "${pids[@]}"; do wait "${s}" || rc=1; done
  ((rc == 0)) || die "a service did not start (logs in ${LH_LOG_DIR})"
  e2e_log "stack ready after $(elapsed_since "${t0}")"

  ADMIN=$(kube_token e2e-admin platform-admins)
  USER_TOKEN=$(kube_token e2e-user)
  MEMBER_TOKEN=$(kube_token e2e-member e2e-team other-team)

  # Warm-up: the consumers start at the latest offset once their partitions are assigned; until a
  # first role goes through, nothing is measured. Two more rounds run the path's first (interpreted,
  # cold) executions, unmeasured.
  for s in 1 2 3; do
    warm="${RUN_ID}-warm${s}"
    set_member "${warm}" user:e2e-user viewer
    await_status "${CATALOG}/api/v1/namespaces/${warm}/instances/iceberg-catalog" "${USER_TOKEN}" 200 30000 >/dev/null ||
      die "catalog-service never saw the warm-up role within 30 s"
    set_member "${warm}" user:e2e-user ""
    await_status "${CATALOG}/api/v1/namespaces/${warm}/instances/iceberg-catalog" "${USER_TOKEN}" 403 30000 >/dev/null ||
      die "catalog-service never saw the warm-up removal within 30 s"
  done

  for s in 1 2 3; do
    ns="${RUN_ID}-u${s}"
    check "user, round ${s}" "${ns}" user:e2e-user "${USER_TOKEN}"
  done
  for s in 1 2; do
    ns="${RUN_ID}-g${s}"
    check "group, round ${s}" "${ns}" group:/e2e-team "${MEMBER_TOKEN}"
  done
  if ((${#TIMES[@]} > 0)); then
    local median
    median=$(median_ms)
    e2e_log "median propagation ${median} ms over ${#TIMES[@]} changes (limit ${LIMIT_MS} ms)"
    if ((median > LIMIT_MS)); then
      e2e_log "FAIL the median propagation is over ${LIMIT_MS} ms"
      FAILURES=$((FAILURES + 1))
    fi
  fi
  if ((FAILURES > 0)); then
    e2e_log "${FAILURES} check(s) failed (logs in ${LH_LOG_DIR}) after $(elapsed_since "${t0}")"
    return 1
  fi
  e2e_log "passed in $(elapsed_since "${t0}")"
}

main "$@"
