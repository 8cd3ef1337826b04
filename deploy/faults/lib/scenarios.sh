# shellcheck shell=bash disable=SC2034 # variables shared with the other files of deploy/faults
# The scenarios: each injects one fault, checks the degraded behaviour it expects (returns non-zero with a
# message when it is not there), and recovers; the runner then runs the invariant check. Each records its
# figures with `figure NAME VALUE` (they go to the summary and docs/faults.md).
#
# Every scenario works in its own namespace fx<run id>-<scenario> (events of earlier runs stay on the topics) so that their instances never meet.

# kube-errors after the scenarios that need a healthy cache (its faults make the informers watch and list again)
# NAME-SERVICE runs scenario NAME on that service (catalog-service when no service is named).
SCENARIOS_ALL="kill-mid-reconcile kafka-down pg-restart drift replay malformed-event kube-errors leader-failover
  replica-roles relay-crash kill-mid-reconcile-engines leader-failover-engines drift-engines kill-mid-reconcile-notebooks
  leader-failover-notebooks kill-mid-reconcile-sparkjobs leader-failover-sparkjobs kill-mid-reconcile-access
  leader-failover-access"
# kube-errors last: a fault that leaves a service broken must not be blamed on the next scenario. Of the other
# services: the leader killed on engines-service (lease takeover, API on both replicas). Within the ~6 min
# budget: kill-mid-reconcile-sparkjobs (a launch cut short, ~90 s of which up to 90 s waiting for the job
# tracker's grace and resync) runs in the full suite only.
SCENARIOS_SHORT="kill-mid-reconcile kafka-down pg-restart drift malformed-event relay-crash leader-failover-engines
  kube-errors"

FX_KAFKA_DOWN_S="${LAKEHOUSE_FAULTS_KAFKA_DOWN_S:-180}"
FX_KUBE_FAULT_S="${LAKEHOUSE_FAULTS_KUBE_FAULT_S:-60}"
# Requests per second through the proxy above which a service is said to loop (a busy but sane pass of
# the reconciler makes tens; a hot loop makes hundreds or more).
FX_HOT_LOOP_RPS="${LAKEHOUSE_FAULTS_HOT_LOOP_RPS:-100}"

figure() { printf '%s=%s\n' "$1" "$2" >>"${FX_FIGURES}"; fx_log "  ${1}: ${2}"; }

sc_fail() { fx_log "  FAILED: $*"; printf '%s\n' "$*" >>"${FX_FAILURES}"; return 1; }

# --- 1. kill -9 in the middle of a reconcile (of a launch, of grants) --------------------------------------

# Every unit whose create/launch/grant was acknowledged (2xx) is stored: an answered request is never lost.
acknowledged_stored() { # SVC NS PREFIX N
  local i code rc=0
  for ((i = 1; i <= $4; i++)); do
    code=$(cat "${LAKEHOUSE_HOME}/units/$2-$3${i}.code" 2>/dev/null || true)
    if fx_unit_ok "${code}" "$1" && ! fx_unit_stored "$1" "$2" "$3${i}"; then
      sc_fail "$1: $2/$3${i} was acknowledged (${code}) but is not stored"
      rc=1
    fi
  done
  return "${rc}"
}

units_stored() { # SVC NS PREFIX N -> how many are stored
  local i k=0
  for ((i = 1; i <= $4; i++)); do fx_unit_stored "$1" "$2" "$3${i}" && k=$((k + 1)); done
  printf '%s\n' "${k}"
}

# kill-mid-reconcile[-SVC]: every API call through the proxy takes 400 ms, so a reconcile pass (or a launch,
# which calls the API itself) lasts seconds; N units at once; kill -9 once the service acted on some of them.
scenario_kill_mid_reconcile() {
  local svc=${1:-catalog} ns n=4 rc=0
  ns=${FX_NS}-kill${1:+-$1}
  fx_up "${svc}"
  [[ ${svc} == access ]] && { n=12; ensure_grant_target "${ns}" || return 1; }
  fx_faults "latencyMs=400"
  fx_units "${svc}" "${ns}" u "${n}"
  if ! await 120 fx_work_started "${svc}" "${ns}" >/dev/null; then
    fx_faults
    fx_units_wait
    sc_fail "${svc} did not act on ${ns} within 120 s: $(fx_units_codes "${ns}" u "${n}")"
    return 1
  fi
  fx_service_kill9 "${svc}"
  figure "kill.${svc}.at_kill" "$(work_at_kill "${svc}" "${ns}" "${n}")"
  fx_units_wait
  fx_faults
  figure "kill.${svc}.answers" "$(fx_units_codes "${ns}" u "${n}")"
  acknowledged_stored "${svc}" "${ns}" u "${n}" || rc=1
  fx_service_start "${svc}"
  return "${rc}"
}

work_at_kill() { # SVC NS N
  case $1 in
    catalog | engines) printf '%s objects of %s instances\n' "$(objects_in "$1" "$2")" "$3" ;;
    notebooks) printf '%s objects of %s hubs\n' "$(managed_objects notebooks | awk -F'\t' -v p="$2-" 'split($1, a, "/") && index(a[2], p) == 1' | wc -l)" "$3" ;;
    *) printf '%s of %s stored\n' "$(units_stored "$1" "$2" u "$3")" "$3" ;;
  esac
}

# --- 2. Kafka down for minutes while the API takes writes ---------------------------------------------

readiness_outbox() { # API PORT -> "state backlog" (readiness: on the management port, API port + 1000)
  curl -s --max-time 5 "http://127.0.0.1:$(($1 + 1000))/q/health/ready" |
    jq -r '[.checks[]? | select(.data.backlog != null)][0] | "\(.data.state) \(.data.backlog) \(.status)"'
}

outbox_degraded() { read -r state backlog _ <<<"$(readiness_outbox "${FX_CATALOG_PORT}")"; [[ ${state} == degraded && ${backlog} -gt 0 ]]; }
outbox_drained() { read -r state backlog _ <<<"$(readiness_outbox "${FX_CATALOG_PORT}")"; [[ ${state} == publishing && ${backlog} == 0 ]]; }

scenario_kafka_down() {
  local ns=${FX_NS}-kafka i t0 code codes=() took end ready_code rc=0
  FX_EXPECTED_ERRORS='[Kk]afka|[Bb]roker|outbox|[Oo]utbox|Connection to node|[Tt]imeout|disconnected'
  outer kafka_down
  t0=$(now_ms)
  end=$((SECONDS + FX_KAFKA_DOWN_S))
  i=0
  while ((SECONDS < end)); do
    i=$((i + 1))
    local t1
    t1=$(now_ms)
    code=$(api POST "/api/v1/namespaces/${ns}/instances/iceberg-catalog" "$(catalog_body "cat${i}")")
    codes+=("${code}:$(($(now_ms) - t1))ms")
    [[ ${code} == 201 ]] || rc=1
    if ((i == 1)); then
      if took=$(await 60 outbox_degraded); then
        figure kafka.degraded_after_ms "${took}"
      else
        sc_fail "readiness never reported the outbox degraded with a backlog: $(readiness_outbox "${FX_CATALOG_PORT}")"
        rc=1
      fi
      ready_code=$(svc_http_code "${FX_CATALOG_MGMT}/q/health/ready")
      figure kafka.readiness_http "${ready_code} ($(readiness_outbox "${FX_CATALOG_PORT}"))"
      [[ ${ready_code} == 200 ]] || { sc_fail "readiness is ${ready_code}: the pod would leave its Service"; rc=1; }
    fi
    ((i >= 3)) && sleep 5
  done
  figure kafka.writes_while_down "${codes[*]}"
  figure kafka.backlog_before_restart "$(fx_sql "SELECT count(*) FROM catalog.outbox WHERE published_at IS NULL")"
  outer kafka_up
  figure kafka.down_for_ms $(($(now_ms) - t0))
  if took=$(await 120 outbox_drained); then
    figure kafka.drained_after_restart_ms "${took}"
  else
    sc_fail "the outbox did not drain within 120 s: $(readiness_outbox "${FX_CATALOG_PORT}")"
    rc=1
  fi
  ((rc == 0)) || sc_fail "writes while Kafka was down: ${codes[*]}"
  return "${rc}"
}

# --- 3. PostgreSQL restarted -----------------------------------------------------------------------------

api_ok() { [[ $(API_TIMEOUT=5 api GET "/api/v1/namespaces/${FX_NS}-pg/instances/iceberg-catalog") == 200 ]]; }

scenario_pg_restart() {
  local ns=${FX_NS}-pg t1 code took rc=0 ms
  if pg_external_outer; then
    fx_log "  skipped: PostgreSQL is LAKEHOUSE_PG_ADMIN_URL's (not ours to stop)"
    return 0
  fi
  # a replica whose lock connection breaks steps down (docs/architecture.md, Leadership); 57P01 and class
  # 08 (08xxx) are PostgreSQL's SQLSTATEs of a terminated or refused connection
  FX_EXPECTED_ERRORS='[Cc]onnection|PostgreSQL|postgres|SQL|[Pp]ool|terminat|shutdown|57P01|08[0-9A-Z]{3}|lost the leader lock'
  create_catalog "${ns}" before || return 1
  outer pg_down
  t1=$(now_ms)
  code=$(API_TIMEOUT=30 api POST "/api/v1/namespaces/${ns}/instances/iceberg-catalog" "$(catalog_body during)")
  ms=$(($(now_ms) - t1))
  figure pg.create_while_down "HTTP ${code} in ${ms} ms ($(jq -r '.title // .detail // empty' "${FX_LAST_BODY}" 2>/dev/null | head -c 80))"
  [[ ${code} == 503 ]] || { sc_fail "a write while PostgreSQL is down answered ${code}, not 503"; rc=1; }
  ((ms <= 5000)) || { sc_fail "a write while PostgreSQL is down took ${ms} ms (not fast)"; rc=1; }
  t1=$(now_ms)
  code=$(API_TIMEOUT=30 api GET "/api/v1/namespaces/${ns}/instances/iceberg-catalog")
  figure pg.read_while_down "HTTP ${code} in $(($(now_ms) - t1)) ms"
  t1=$(now_ms)
  outer pg_up
  figure pg.server_restart_ms $(($(now_ms) - t1))
  if took=$(await 60 api_ok); then
    figure pg.api_recovered_after_ms "${took}"
    ((took <= 10000)) || { sc_fail "the API took ${took} ms to recover"; rc=1; }
  else
    sc_fail "the API did not answer 200 within 60 s of PostgreSQL's restart"
    return 1
  fi
  # no partial write: the request refused during the outage left nothing behind
  [[ $(api GET "/api/v1/namespaces/${ns}/instances/iceberg-catalog/during") == 404 ]] ||
    { sc_fail "the write refused during the outage exists"; rc=1; }
  [[ $(fx_sql "SELECT count(*) FROM registry.instance_names WHERE namespace = '${ns}' AND name = 'during'") == 0 ]] ||
    { sc_fail "the refused write left its name claimed in the registry"; rc=1; }
  create_catalog "${ns}" after || rc=1
  return "${rc}"
}

pg_external_outer() { [[ -n ${OUTER_PG_ADMIN_URL:-} ]]; }

# --- 4. Kubernetes API errors and latency -------------------------------------------------------------------

scenario_kube_errors() {
  local ns=${FX_NS}-kube end peak=0 rps last now i=0 samples=()
  FX_EXPECTED_ERRORS='injected by the fault proxy|Failure executing|InternalError|TooManyRequests|Conflict|Expired|Gone|410|429|500|409|KubernetesClientException|WatcherException|reconcile'
  fx_proxy_reset
  fx_faults "rate500=0.2&rate429=0.2&rate409=0.2&rate410=0.5&latencyMs=100"
  create_catalog "${ns}" cat1 || true
  create_catalog "${ns}" cat2 || true
  # a hand edit during the faults too: the repair goes through the same failing API
  curl -sf -X DELETE "${KUBE_URL}/apis/apps/v1/namespaces/${FX_REF_NS}/deployments/${FX_REF_NAME}" >/dev/null || true
  end=$((SECONDS + FX_KUBE_FAULT_S))
  last=$(fx_proxy_count requests)
  while ((SECONDS < end)); do
    sleep 1
    now=$(fx_proxy_count requests)
    rps=$((now - last))
    last=${now}
    samples+=("${rps}")
    ((rps > peak)) && peak=${rps}
  done
  figure kube.injected "500: $(fx_proxy_count injected500), 429: $(fx_proxy_count injected429), 409: $(fx_proxy_count injected409), 410: $(fx_proxy_count injected410) of $(fx_proxy_count requests) requests (watches $(fx_proxy_count watches))"
  figure kube.requests_per_second "peak ${peak}, per second: ${samples[*]}"
  fx_faults
  ((peak <= FX_HOT_LOOP_RPS)) || { sc_fail "peak ${peak} requests/s through the proxy: a hot loop (limit ${FX_HOT_LOOP_RPS})"; return 1; }
}

# --- 5. drift -------------------------------------------------------------------------------------------------

# The reference instance of a service (see ensure_reference): its Deployment and Service carry its name.
ref_name() { [[ $1 == catalog ]] && printf '%s\n' "${FX_REF_NAME}" || printf '%s-ref\n' "$1"; }

deployment_back() { kube_get "/apis/apps/v1/namespaces/${FX_REF_NS}/deployments/$1" >/dev/null; }
service_back() { kube_get "/api/v1/namespaces/${FX_REF_NS}/services/$1" >/dev/null; }
configmap_restored() {
  ! kube_get "/api/v1/namespaces/${FX_REF_NS}/configmaps/$1-instance" | jq -e '.data["fx-drift"]' >/dev/null &&
    kube_get "/api/v1/namespaces/${FX_REF_NS}/configmaps/$1-instance" | jq -e '.metadata.annotations["lakehouse.io/checksum"] != "hand-edited"' >/dev/null
}

# drift[-SVC]: the reference instance's Deployment and Service deleted, its root ConfigMap edited by hand.
scenario_drift() {
  local svc=${1:-catalog} name cm took rc=0
  fx_up "${svc}"
  name=$(ref_name "${svc}")
  curl -sf -X DELETE "${KUBE_URL}/apis/apps/v1/namespaces/${FX_REF_NS}/deployments/${name}" >/dev/null ||
    sc_fail "could not delete the Deployment"
  curl -sf -X DELETE "${KUBE_URL}/api/v1/namespaces/${FX_REF_NS}/services/${name}" >/dev/null ||
    sc_fail "could not delete the Service"
  cm=$(kube_get "/api/v1/namespaces/${FX_REF_NS}/configmaps/${name}-instance" |
    jq -c '.data["fx-drift"] = "by hand" | .metadata.annotations["lakehouse.io/checksum"] = "hand-edited"')
  curl -sf -X PUT -H 'Content-Type: application/json' -d "${cm}" \
    "${KUBE_URL}/api/v1/namespaces/${FX_REF_NS}/configmaps/${name}-instance" >/dev/null ||
    sc_fail "could not edit the root ConfigMap"
  if took=$(await 30 deployment_back "${name}"); then figure "drift.${svc}.deployment_back_ms" "${took}"; else sc_fail "the deleted Deployment did not come back"; rc=1; fi
  if took=$(await 30 service_back "${name}"); then figure "drift.${svc}.service_back_ms" "${took}"; else sc_fail "the deleted Service did not come back"; rc=1; fi
  if took=$(await 30 configmap_restored "${name}"); then figure "drift.${svc}.configmap_restored_ms" "${took}"; else sc_fail "the edited ConfigMap was not restored"; rc=1; fi
  return "${rc}"
}

# --- 6. replay of a whole topic ------------------------------------------------------------------------------

consumed_all() { [[ $(fx_events lag "${KAFKA_BOOTSTRAP}" "$1") == 0 ]]; }

scenario_replay() {
  local before after roles_before roles_after deps_before deps_after took mutating proxy_from
  FX_EXPECTED_ERRORS=''
  # a plain restart first: what a restart alone repairs or rewrites is not blamed on the replay
  fx_service_stop catalog
  fx_service_start catalog
  await 60 converged >/dev/null || true
  before=$(managed_objects_versions)
  roles_before=$(fx_sql "SELECT * FROM catalog.member_roles ORDER BY 1, 2, 3")
  deps_before=$(fx_sql "SELECT * FROM catalog.catalog_dependents ORDER BY 1, 2, 3")
  fx_service_stop catalog
  fx_events reset-earliest "${KAFKA_BOOTSTRAP}" "${FX_GROUP}-catalog-lakehouse-instances" lakehouse.instances
  fx_events reset-earliest "${KAFKA_BOOTSTRAP}" "${FX_GROUP}-catalog-lakehouse-access" lakehouse.access
  figure replay.records "lakehouse.instances $(grep -c '^lakehouse.instances	' "${LAKEHOUSE_HOME}/topics.tsv"), lakehouse.access $(grep -c '^lakehouse.access	' "${LAKEHOUSE_HOME}/topics.tsv")"
  fx_proxy_reset
  proxy_from=$(stat -c %s "${LH_LOG_DIR}/proxy.log")
  fx_service_start catalog
  if took=$(await 120 consumed_all "${FX_GROUP}-catalog-lakehouse-instances") && await 60 consumed_all "${FX_GROUP}-catalog-lakehouse-access" >/dev/null; then
    figure replay.consumed_after_ms "${took}"
  else
    sc_fail "the groups did not consume the replayed topics within 120 s"
    return 1
  fi
  await 30 converged >/dev/null || true
  mutating=$(fx_proxy_count mutating)
  figure replay.mutating_calls "${mutating} ($(fx_proxy_count requests) requests in all, restart included)"
  after=$(managed_objects_versions)
  roles_after=$(fx_sql "SELECT * FROM catalog.member_roles ORDER BY 1, 2, 3")
  deps_after=$(fx_sql "SELECT * FROM catalog.catalog_dependents ORDER BY 1, 2, 3")
  [[ ${roles_before} == "${roles_after}" ]] || sc_fail "the roles projection changed"
  [[ ${deps_before} == "${deps_after}" ]] || sc_fail "the catalog dependents changed"
  [[ ${before} == "${after}" ]] || sc_fail "objects changed: $(diff <(printf '%s\n' "${before}") <(printf '%s\n' "${after}") | head -5 | tr '\n' ' ')"
  [[ ${roles_before} == "${roles_after}" && ${deps_before} == "${deps_after}" && ${before} == "${after}" ]] || return 1
  ((mutating == 0)) || {
    sc_fail "${mutating} mutating calls to the API server after the replay: $(tail -c +$((proxy_from + 1)) "${LH_LOG_DIR}/proxy.log" |
      grep -o 'write .*' | tail -n "${mutating}" | paste -sd, -)"
    return 1
  }
}

managed_objects_versions() {
  local entry
  for entry in ${FX_KINDS}; do
    kube_get "$(kube_path "${entry%%:*}" "${entry##*:}")?labelSelector=app.kubernetes.io%2Fmanaged-by%3Dcatalog-service" 2>/dev/null |
      jq -r '.items[]? | "\(.kind)/\(.metadata.namespace)/\(.metadata.name) \(.metadata.resourceVersion)"'
  done | sort
}

# --- 7. a malformed event ---------------------------------------------------------------------------------------

user_sees() { [[ $(curl -s -o /dev/null -w '%{http_code}' --max-time 5 -H "Authorization: Bearer ${USER_TOKEN}" "$1") == "$2" ]]; }

in_dlq() { fx_events dump "${KAFKA_BOOTSTRAP}" lakehouse.access.dlq | grep -qF "$1"; }

scenario_malformed_event() {
  local ns=${FX_NS}-dlq bad good took rc=0
  FX_EXPECTED_ERRORS='[Mm]alformed|dead.letter|DLQ|dlq|data is not a JSON object|[Dd]ead'
  bad=$(fx_events produce "${KAFKA_BOOTSTRAP}" lakehouse.access lakehouse.access.member-set.v1 "${ns}" '{not json')
  good=$(fx_events produce "${KAFKA_BOOTSTRAP}" lakehouse.access lakehouse.access.member-set.v1 "${ns}" \
    "{\"namespace\":\"${ns}\",\"subjectType\":\"user\",\"subject\":\"${FX_USER}\",\"role\":\"viewer\"}")
  printf '%s\n' "${good}" >>"${FX_PRODUCED_IDS}"
  printf '%s|user|%s|viewer\n' "${ns}" "${FX_USER}" >>"${FX_EXPECTED_ROLES}"
  if took=$(await 60 user_sees "${FX_CATALOG}/api/v1/namespaces/${ns}/instances/iceberg-catalog" 200); then
    figure dlq.valid_event_after_bad_applied_ms "${took}"
  else
    sc_fail "the valid event after the malformed one was not applied (the partition is stuck?)"
    rc=1
  fi
  if took=$(await 60 in_dlq "${bad}"); then
    figure dlq.malformed_in_dlq_ms "${took}"
  else
    sc_fail "the malformed event ${bad} is not on lakehouse.access.dlq"
    rc=1
  fi
  return "${rc}"
}

# --- 8. two replicas, the leader killed ---------------------------------------------------------------------------

# The lease's bound (docs/architecture.md, Leadership): a new leader within ~12 s of a node's death (lease 10 s,
# renewed every 2 s); a little margin for a loaded machine.
FX_TAKEOVER_S="${LAKEHOUSE_FAULTS_TAKEOVER_S:-15}"

other_replica() { [[ $1 == *2 ]] && printf '%s\n' "${1%2}" || printf '%s2\n' "$1"; }

# leader-failover[-SVC]: two replicas; with a leader (catalog, engines, notebooks): one unit through the
# replica that does not lead (the API serves on both, the leader reconciles it); then, with 400 ms on every
# API call, units through both replicas, and the leader (sparkjobs, access: the first replica) killed while they
# are in flight. The survivor takes the lease within the bound, every acknowledged unit is stored, and the
# invariants find every instance converged, no object lost, doubled or leaked, no event lost or doubled.
scenario_leader_failover() {
  local svc=${1:-catalog} ns leader other took t0 rc=0 n=3 lease second
  ns=${FX_NS}-leader${1:+-$1}
  # the second replica starts while the first one starts and records its reference (a start is the
  # longest wait of the scenario: 20-60 s on a loaded machine)
  fx_service_start "${svc}2" &
  second=$!
  fx_up "${svc}"
  wait "${second}" || { sc_fail "${svc}2 did not start (log ${LH_LOG_DIR}/${svc}2.log)"; return 1; }
  [[ ${svc} == access ]] && { n=8; ensure_grant_target "${ns}" || return 1; }
  leader=${svc}
  if fx_has_leader "${svc}"; then
    leader=$(await 30 leader_replica "${svc}" >/dev/null && leader_replica "${svc}") ||
      { sc_fail "${svc}: no replica holds the lease with two running"; return 1; }
    other=$(other_replica "${leader}")
    lease=$(lease_of "${svc}")
    figure "leader.${svc}.lease_before" "${leader} epoch ${lease##* }"
    fx_prepare "${svc}" "${ns}" via-other
    [[ $(API_BASE=$(fx_url "${other}") fx_unit "${svc}" "${ns}" via-other) =~ ^20[01]$ ]] || { sc_fail "${svc}: a create through ${other} answered $(head -c 200 "${FX_LAST_BODY}")"; rc=1; }
    if took=$(await 60 unit_ready "${svc}" "${ns}" via-other); then
      figure "leader.${svc}.created_on_other_ready_ms" "${took}"
    else
      sc_fail "${svc}: the instance created through ${other} was not reconciled by ${leader} within 60 s"
      rc=1
    fi
  fi
  other=$(other_replica "${leader}")
  fx_faults "latencyMs=400"
  fx_units "${svc}" "${ns}" a "${n}" "${leader}"
  fx_units "${svc}" "${ns}" b "${n}" "${other}"
  await 120 fx_work_started "${svc}" "${ns}" >/dev/null || fx_log "  note: no work visible before the kill"
  fx_service_kill9 "${leader}"
  t0=$(now_ms)
  figure "leader.${svc}.at_kill" "$(work_at_kill "${svc}" "${ns}" "$((2 * n))")"
  fx_faults
  if fx_has_leader "${svc}"; then
    if await "$((FX_TAKEOVER_S + 30))" leader_is "${svc}" "${other}" >/dev/null; then
      took=$(($(leader_since_ms "${svc}" "${other}" 2>/dev/null || now_ms) - t0))
      figure "leader.${svc}.takeover_ms" "${took} (lease $(lease_of "${svc}" | cut -d' ' -f2))"
      ((took <= FX_TAKEOVER_S * 1000)) || { sc_fail "${svc}: ${other} took the lead after ${took} ms (bound ${FX_TAKEOVER_S} s)"; rc=1; }
    else
      sc_fail "${svc}: ${other} never took the lead"
      rc=1
    fi
  fi
  fx_units_wait
  figure "leader.${svc}.answers" "$(fx_units_codes "${ns}" a "${n}") $(fx_units_codes "${ns}" b "${n}")"
  acknowledged_stored "${svc}" "${ns}" a "${n}" || rc=1
  acknowledged_stored "${svc}" "${ns}" b "${n}" || rc=1
  if fx_has_leader "${svc}"; then
    if took=$(await 90 converged); then figure "leader.${svc}.converged_after_kill_ms" $(($(now_ms) - t0)); fi
  fi
  # not earlier, alongside the survivor's convergence: at load 30 such a start starved (event loop blocked
  # 12 s) and failed its first query
  fx_service_start "${leader}"
  # the suite's later scenarios run on the first replica alone; a rolling update stops replicas this way
  t0=$(now_ms)
  fx_service_stop "${svc}2"
  figure "leader.${svc}.sigterm_exit_ms" "$(($(now_ms) - t0))"
  return "${rc}"
}

unit_ready() { # SVC NS NAME
  case $1 in
    notebooks) instance_ready notebooks "$(hub_ns "$2" "$3")" "$3" ;;
    *) instance_ready "$1" "$2" "$3" ;;
  esac
}

# --- 9. a role removed, seen by every replica ------------------------------------------------------------------------

group_has() { [[ $(fx_events group "${KAFKA_BOOTSTRAP}" "$1" | tr '[:lower:]' '[:upper:]') == "STABLE $2" ]]; }

scenario_replica_roles() {
  local ns=${FX_NS}-roles id took rc=0 port seen=()
  fx_service_start catalog2
  # both replicas in the group first: a rebalance in progress would only delay the events
  took=$(await 90 group_has "${FX_GROUP}-catalog-lakehouse-access" 2) ||
    { sc_fail "the access group never had two stable members"; fx_service_stop catalog2; return 1; }
  figure roles.group_stable_after_ms "${took}"
  id=$(fx_events produce "${KAFKA_BOOTSTRAP}" lakehouse.access lakehouse.access.member-set.v1 "${ns}" \
    "{\"namespace\":\"${ns}\",\"subjectType\":\"user\",\"subject\":\"${FX_USER}\",\"role\":\"viewer\"}")
  printf '%s\n' "${id}" >>"${FX_PRODUCED_IDS}"
  for port in "${FX_CATALOG_PORT}" "${FX_CATALOG2_PORT}"; do
    if took=$(await 10 user_sees "http://127.0.0.1:${port}/api/v1/namespaces/${ns}/instances/iceberg-catalog" 200); then
      figure "roles.set_seen_by_${port}_ms" "${took}"
      seen+=("${port}")
    else
      sc_fail "the replica on :${port} never saw the role set (10 s)"
      rc=1
    fi
  done
  id=$(fx_events produce "${KAFKA_BOOTSTRAP}" lakehouse.access lakehouse.access.member-removed.v1 "${ns}" \
    "{\"namespace\":\"${ns}\",\"subjectType\":\"user\",\"subject\":\"${FX_USER}\"}")
  printf '%s\n' "${id}" >>"${FX_PRODUCED_IDS}"
  # a removal is only visible where the role was seen
  for port in "${seen[@]}"; do
    if took=$(await 10 user_sees "http://127.0.0.1:${port}/api/v1/namespaces/${ns}/instances/iceberg-catalog" 403); then
      figure "roles.removal_seen_by_${port}_ms" "${took}"
    else
      sc_fail "the replica on :${port} still lets the removed member in after 10 s"
      rc=1
    fi
  done
  fx_service_stop catalog2
  return "${rc}"
}

# --- 10. the relay killed between the Kafka ack and the marking ------------------------------------------------------

proc_dead() { ! proc_running "$1"; }
none_unmarked() { [[ $(fx_sql "SELECT count(*) FROM catalog.outbox WHERE published_at IS NULL AND parked_at IS NULL") == 0 ]]; }

# Every ce_id on the outbox's topics (instances, audit), one a line, as often as it is there.
topic_ids() {
  # shellcheck disable=SC2046 # one topic per word
  fx_events dump "${KAFKA_BOOTSTRAP}" $(fx_sql "SELECT DISTINCT topic FROM catalog.outbox") | cut -f2
}

scenario_relay_crash() {
  local ns=${FX_NS}-relay pid unmarked acked=() ids id copies lost=0 twice=0 rc=0
  pid=$(fx_service_pid catalog) || { sc_fail "catalog-service is not running"; return 1; }
  # armed: the relay halts the JVM once Kafka acknowledged its next batch, before marking the rows
  touch "${FX_RELAY_HALT_FILE}"
  # its answer may be lost: the halt can come before the response is sent (the row is committed)
  create_catalog "${ns}" relayed || fx_log "  the create got no answer: the service halted first"
  if ! await 30 proc_dead "${pid}" >/dev/null; then
    rm -f "${FX_RELAY_HALT_FILE}"
    sc_fail "the relay never reached its crash hook within 30 s"
    return 1
  fi
  rm -f "$(pid_file catalog)"
  # unmarked: the halted batch (on its topic already) and rows committed after its read (not sent yet)
  unmarked=$(fx_sql "SELECT event_id FROM catalog.outbox WHERE published_at IS NULL AND parked_at IS NULL ORDER BY seq")
  ids=$(topic_ids)
  for id in ${unmarked}; do
    if grep -qx "${id}" <<<"${ids}"; then acked+=("${id}"); fi
  done
  figure relay.rows_acked_not_marked "${#acked[@]} (of $(grep -c . <<<"${unmarked}") unmarked)"
  ((${#acked[@]} > 0)) || { sc_fail "no acknowledged row left unmarked by the crash"; rc=1; }
  fx_service_start catalog
  await 30 none_unmarked >/dev/null || { sc_fail "the rows were not published again within 30 s of the restart"; rc=1; }
  ids=$(topic_ids)
  for id in ${unmarked}; do
    copies=$(grep -cx "${id}" <<<"${ids}" || true)
    if ((copies == 0)); then lost=$((lost + 1)); fi
  done
  for id in "${acked[@]}"; do
    copies=$(grep -cx "${id}" <<<"${ids}" || true)
    if ((copies == 2)); then twice=$((twice + 1)); fi
  done
  # at least once, and the copies share their ce_id: a consumer's inbox (event_id, consumer) applies one
  figure relay.acked_events_on_topic_twice_same_id "${twice} of ${#acked[@]}"
  ((lost == 0)) || { sc_fail "${lost} event(s) lost after the crash"; rc=1; }
  return "${rc}"
}
