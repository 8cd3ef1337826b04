# shellcheck shell=bash disable=SC2034 # variables shared with the other files of deploy/faults
# The ONE invariant check run after every fault (quality bar, "Reliability"), over every service that has
# run in this database (its schema has the table in question):
#   1. converged: no instance left in Deleting, every instance Ready (catalog, engines, notebooks), every
#      job finished (sparkjobs), no outbox row unpublished (every service);
#   2. objects: every instance has exactly the objects of the reference instance of its kind (same kinds,
#      same names after its own name), no object of an instance its service does not have (orphans), none
#      twice; every SparkApplication of the suite's namespaces is in the jobs' history (none leaked);
#   3. events: every outbox row of every service is on its topic (published at least once); every valid
#      membership event the suite produced is in every service's inbox and each roles projection is what
#      the suite set (applied once: the inbox key makes a second application impossible, the projection
#      shows a lost one); one event per job state change, one grant-added per grant, and engines-service's
#      grants projection equal to access-service's grants;
#   4. logs: no ERROR line since the scenario began, except the ones the scenario expects (FX_EXPECTED_ERRORS);
#   5. the canary S3 secret typed into every create request appears in no log, no topic, no database column
#      (the sealed column holds ciphertext), no API response and no Kubernetes object but its Secret.
# Prints one line per failure; returns the number of failures (0 = all hold).

FX_CONVERGE_S="${LAKEHOUSE_FAULTS_CONVERGE_S:-120}"
# The shape of one instance of KIND: reference-<kind>.txt (recorded from a healthy reference instance).
FX_TEMPLATE_DIR="${LAKEHOUSE_HOME}"
FX_EXPECTED_ROLES="${LAKEHOUSE_HOME}/expected-roles.txt"
FX_PRODUCED_IDS="${LAKEHOUSE_HOME}/produced-valid-ids.txt"
FX_EXPECTED_ERRORS=""

inv_fail() {
  printf '[faults]   INVARIANT FAILED: %s\n' "$*" >&2
  printf '%s\n' "$*" >>"${FX_FAILURES}"
  INV_FAILURES=$((INV_FAILURES + 1))
}

fx_template() { printf '%s/reference-%s.txt\n' "${FX_TEMPLATE_DIR}" "$1"; }

# The services of the suite that have run in this database (their schema has TABLE), one a line.
schemas_with() { # TABLE
  fx_sql "SELECT table_schema FROM information_schema.tables WHERE table_name = '$1'
    AND table_schema IN ('${FX_SERVICES// /\',\'}') ORDER BY 1"
}

# The services with instances of their own kinds (access-service's instances table is a projection).
instance_schemas() {
  local schema
  for schema in $(schemas_with instances); do fx_kind "${schema}" >/dev/null && printf '%s\n' "${schema}"; done
  return 0
}

# What is not converged yet, one line per item (empty: converged).
not_converged() {
  local schema
  for schema in $(instance_schemas); do
    fx_sql "SELECT '${schema}: ' || namespace || '/' || name || ' ' || phase || CASE WHEN deleting THEN ' (deleting)' ELSE '' END
      FROM ${schema}.instances WHERE deleting OR phase <> 'Ready'"
  done
  for schema in $(schemas_with outbox); do
    fx_sql "SELECT '${schema}: ' || count(*) || ' unpublished outbox rows' FROM ${schema}.outbox WHERE published_at IS NULL
      HAVING count(*) > 0"
  done
  if [[ -n $(schemas_with jobs) ]]; then
    fx_sql "SELECT 'sparkjobs: job ' || namespace || '/' || name || ' ' || state FROM sparkjobs.jobs
      WHERE state NOT IN ('COMPLETED', 'FAILED', 'SUBMISSION_FAILED', 'CANCELLED')"
  fi
}

converged() { [[ -z $(not_converged) ]]; }

# The objects of one instance with its namespace and name replaced, e.g. "deployments/@" or "secrets/@-s3".
# OBJECTS: managed_objects' listing, read once per service and check (not once per instance: with tens of
# instances that was hundreds of API lists per invariant check).
instance_shape() { # OBJECTS UID NS NAME
  awk -F'\t' -v uid="$2" '$2 == uid { print $1 }' <<<"$1" | sed -E "s#^([^/]+)/$3/$4#\1/@#" | sort
}

# Records the reference shape of a service's kind from a healthy instance (Ready, before any fault).
record_reference_shape() { # SVC NS NAME
  local uid kind
  kind=$(fx_kind "$1")
  uid=$(fx_sql "SELECT uid FROM $1.instances WHERE namespace = '$2' AND name = '$3'")
  instance_shape "$(managed_objects "$1")" "${uid}" "$2" "$3" >"$(fx_template "${kind}")"
  fx_log "reference objects of a ${kind}: $(tr '\n' ' ' <"$(fx_template "${kind}")")"
}

# ensure_reference SVC: a healthy reference instance of the service's kind (namespace ${FX_REF_NS}, one per
# kind: a hub is one per namespace) and its recorded shape, once per run.
ensure_reference() {
  local svc=$1 kind ns name=ref s
  kind=$(fx_kind "${svc}") || return 0
  [[ -s $(fx_template "${kind}") ]] && return 0
  ns=${FX_REF_NS}
  [[ ${svc} == catalog ]] || { name=${svc}-ref; }
  fx_prepare "${svc}" "${ns}" "${name}"
  # a freshly started service on a loaded machine may answer its first call late: the row decides
  fx_unit_ok "$(API_TIMEOUT=90 fx_unit "${svc}" "${ns}" "${name}")" "${svc}" || fx_unit_stored "${svc}" "${ns}" "${name}" ||
    die "could not create the reference ${kind}: $(head -c 300 "${LAKEHOUSE_HOME}/last-body.json")"
  [[ ${svc} == notebooks ]] && ns=$(hub_ns "${ns}" "${name}")
  s=$(await 120 instance_ready "${svc}" "${ns}" "${name}") || die "the reference ${kind} was not Ready within 120 s"
  figure "reference.${kind}.ready_ms" "${s}"
  record_reference_shape "${svc}" "${ns}" "${name}"
}

instance_ready() { [[ $(fx_sql "SELECT phase FROM $1.instances WHERE namespace = '$2' AND name = '$3'") == Ready ]]; }

check_objects() {
  local svc ns name uid kind shape missing extra uids orphans template objects
  for svc in $(instance_schemas); do
    objects=$(managed_objects "${svc}")
    while IFS='|' read -r ns name uid kind; do
      [[ -n ${ns} ]] || continue
      template=$(fx_template "${kind}")
      [[ -s ${template} ]] || { inv_fail "${svc}: ${ns}/${name}: no reference shape of a ${kind}"; continue; }
      shape=$(instance_shape "${objects}" "${uid}" "${ns}" "${name}")
      # Jobs finish and may be cleaned up by their TTL: a missing one is fine, an extra one is not.
      missing=$(comm -23 <(grep -v '^jobs/' "${template}") <(printf '%s\n' "${shape}" | grep -v '^jobs/' | sort))
      extra=$(comm -13 "${template}" <(printf '%s\n' "${shape}" | sed '/^$/d'))
      [[ -z ${missing} ]] || inv_fail "${svc}: ${ns}/${name}: missing $(tr '\n' ' ' <<<"${missing}")"
      [[ -z ${extra} ]] || inv_fail "${svc}: ${ns}/${name}: unexpected $(tr '\n' ' ' <<<"${extra}")"
    done < <(fx_sql "SELECT namespace, name, uid, kind FROM ${svc}.instances")
    uids=$(fx_sql "SELECT uid FROM ${svc}.instances")
    orphans=$(awk -F'\t' -v known="${uids//$'\n'/ }" \
      'BEGIN { n = split(known, k, " "); for (i = 1; i <= n; i++) ok[k[i]] = 1 } $2 != "-" && !($2 in ok) { print $1 }' <<<"${objects}")
    [[ -z ${orphans} ]] || inv_fail "${svc}: objects of no instance (orphans): $(tr '\n' ' ' <<<"${orphans}")"
  done
  if [[ -n $(schemas_with jobs) ]]; then check_jobs; fi
}

# sparkjobs-service: every SparkApplication of the suite's namespaces is in the history (none launched and
# forgotten), and the history holds no job twice nor an event of one state change twice.
# SparkApplications of the suite's namespaces that the history lacks.
unrecorded_jobs() {
  comm -23 <(kube_get "/apis/sparkoperator.k8s.io/v1beta2/sparkapplications" |
    jq -r --arg p "${FX_NS}-" '.items[]? | select(.metadata.namespace | startswith($p)) | .metadata.namespace + "/" + .metadata.name' | sort) \
    <(fx_sql "SELECT namespace || '/' || name FROM sparkjobs.jobs WHERE namespace LIKE '${FX_NS}-%'" | sort)
}

all_jobs_recorded() { [[ -z $(unrecorded_jobs) ]]; }

check_jobs() {
  local dup took
  # a launch cut short by a kill leaves its application without a row: the tracker records it once the
  # launch's grace (30 s) passed, at its next resync (60 s)
  if ! took=$(await 120 all_jobs_recorded); then
    inv_fail "sparkjobs: SparkApplications not in the history: $(unrecorded_jobs | tr '\n' ' ')"
  elif ((took > 1000)); then
    fx_log "  every SparkApplication in the history after ${took} ms"
  fi
  dup=$(fx_sql "SELECT subject || ' ' || type || ' ' || coalesce(data->>'state', '') || ' x' || count(*) FROM sparkjobs.outbox
    WHERE type LIKE '%sparkjob.state-changed%' OR type LIKE '%sparkjob.submitted%' GROUP BY subject, type, data->>'state'
    HAVING count(*) > 1")
  [[ -z ${dup} ]] || inv_fail "sparkjobs: events published twice for one change: $(tr '\n' ',' <<<"${dup}")"
}

# The topics of every outbox of the run, plus the ones the suite produces to and their dead-letter topics.
suite_topics() {
  local schema sql="SELECT unnest(ARRAY['lakehouse.instances', 'lakehouse.access', 'lakehouse.instances.dlq', 'lakehouse.access.dlq'])"
  for schema in $(schemas_with outbox); do sql+=" UNION SELECT DISTINCT topic FROM ${schema}.outbox"; done
  fx_sql "${sql}"
}

check_events() {
  local dump missing consumed roles schema expected before
  dump="${LAKEHOUSE_HOME}/topics.tsv"
  # rows published while the topics are read (e.g. the audit sweep publishing a killed replica's intents)
  # are not expected in this read: only those published before it began
  before=$(fx_sql "SELECT now()")
  # shellcheck disable=SC2046 # one topic per word
  fx_events dump "${KAFKA_BOOTSTRAP}" $(suite_topics) >"${dump}" || { inv_fail "could not read the topics"; return; }
  expected=$(sort -u "${FX_EXPECTED_ROLES}" 2>/dev/null)
  for schema in $(schemas_with outbox); do
    missing=$(comm -23 <(fx_sql "SELECT event_id FROM ${schema}.outbox WHERE published_at < '${before}' ORDER BY 1" | sort -u) \
      <(cut -f2 "${dump}" | sort -u))
    [[ -z ${missing} ]] || inv_fail "${schema}: outbox rows never seen on their topic: $(wc -l <<<"${missing}")"
  done
  for schema in $(schemas_with member_roles); do
    # a replica killed or started late gets its partitions after the dead member's Kafka session expires (45 s)
    # and then replays what it missed: give it time
    if [[ -s ${FX_PRODUCED_IDS} ]] && ! await 60 memberships_applied "${schema}" >/dev/null; then
      consumed=$(memberships_missing "${schema}")
      inv_fail "${schema}: membership events never applied: ${consumed//$'\n'/ }"
    fi
    roles=$(fx_sql "SELECT namespace || '|' || subject_type || '|' || subject || '|' || role FROM ${schema}.member_roles
      WHERE namespace LIKE '${FX_NS}-%' ORDER BY 1")
    [[ ${roles} == "${expected}" ]] ||
      inv_fail "${schema}: roles projection is '${roles//$'\n'/, }', expected '${expected//$'\n'/, }'"
  done
  if [[ -n $(schemas_with grants) ]]; then check_grants; fi
}

memberships_missing() { comm -23 <(sort -u "${FX_PRODUCED_IDS}") <(fx_sql "SELECT event_id FROM $1.inbox" | sort -u); }
memberships_applied() { [[ -z $(memberships_missing "$1") ]]; }

# access-service's grants: each one added once (a grant-added event per grant, a removal between two), and
# engines-service's projection (instance_grants) is what access-service holds of the kinds whose objects read grants
# (Trino), once it consumed the events: the scenarios' grants go to an MLflow, of which engines keeps none.
check_grants() {
  local twice
  twice=$(fx_sql "SELECT o.subject || ' ' || (o.data->>'subjectType') || ':' || (o.data->>'subject') || ' ' ||
      sum(CASE WHEN o.type LIKE '%grant-added%' THEN 1 ELSE -1 END)
    FROM access.outbox o WHERE o.type LIKE '%grant-added%' OR o.type LIKE '%grant-removed%'
    GROUP BY o.subject, o.data->>'subjectType', o.data->>'subject'
    HAVING sum(CASE WHEN o.type LIKE '%grant-added%' THEN 1 ELSE -1 END) <> (SELECT count(*) FROM access.grants g
      WHERE g.namespace || '/' || g.kind || '/' || g.name = o.subject AND g.subject_type = o.data->>'subjectType'
        AND g.subject = o.data->>'subject')")
  [[ -z ${twice} ]] || inv_fail "access: grant events do not match the grants (added minus removed): $(tr '\n' ',' <<<"${twice}")"
  if [[ -n $(schemas_with instance_grants) ]] && ! await 30 grants_projected >/dev/null; then
    inv_fail "engines: instance_grants differs from access.grants: $(diff <(access_grants) <(engines_grants) | grep '^[<>]' | head -5 | tr '\n' ' ')"
  fi
}

access_grants() {
  fx_sql "SELECT namespace || '/' || kind || '/' || name || ' ' || subject_type || ':' || subject FROM access.grants
    WHERE namespace LIKE '${FX_NS}-%' AND kind = 'trino' ORDER BY 1"
}
engines_grants() {
  fx_sql "SELECT namespace || '/' || kind || '/' || name || ' ' || subject_type || ':' || subject FROM engines.instance_grants
    WHERE namespace LIKE '${FX_NS}-%' ORDER BY 1"
}
grants_projected() { [[ $(access_grants) == "$(engines_grants)" ]]; }

# Byte offsets of the logs when the scenario began: only what it wrote is read.
mark_logs() {
  local f
  mkdir -p "${FX_MARK_DIR}"
  for f in "${LH_LOG_DIR}"/*.log; do
    stat -c %s "${f}" >"${FX_MARK_DIR}/$(basename "${f}")"
  done
}

new_log_lines() { # FILE
  local from=0 mark
  mark="${FX_MARK_DIR}/$(basename "$1")"
  [[ -f ${mark} ]] && from=$(<"${mark}")
  tail -c +$((from + 1)) "$1"
}

# Drops the ERROR lines of events dead-lettered that this run did not produce: the suite reads the topics from
# their earliest offset, so it meets what other tests left on the same broker (e.g. catalog-service's
# ConsumerFailuresTest's poison event, dead-lettered after its retries, as designed).
without_foreign_dead_letters() {
  local line
  while IFS= read -r line; do
    if [[ ${line} =~ event\ ([0-9a-f-]{36})\ \(.*\)\ sent\ to\ the\ dead-letter\ topic ]] &&
      ! grep -qx "${BASH_REMATCH[1]}" "${FX_PRODUCED_IDS}" 2>/dev/null; then
      continue
    fi
    [[ -z ${line} ]] || printf '%s\n' "${line}"
  done
}

# Drops the ERROR lines the scenario expects (FX_EXPECTED_ERRORS), matched on what follows the level: a
# pattern such as a status or an SQLSTATE must not match a line's timestamp.
expected_removed() {
  local line
  while IFS= read -r line; do
    [[ ${line#* ERROR } =~ ${FX_EXPECTED_ERRORS} ]] || printf '%s\n' "${line}"
  done
}

check_logs() {
  local f errors
  for f in "${LH_LOG_DIR}"/{catalog,engines,notebooks,sparkjobs,access}*.log; do
    [[ -f ${f} ]] || continue
    errors=$(new_log_lines "${f}" | grep -E '^[0-9TZ:.+-]+ ERROR|\bERROR \[' | without_foreign_dead_letters || true)
    if [[ -n ${FX_EXPECTED_ERRORS} && -n ${errors} ]]; then
      errors=$(expected_removed <<<"${errors}")
    fi
    if [[ -n ${errors} ]]; then
      inv_fail "unexpected ERROR in $(basename "${f}") ($(wc -l <<<"${errors}") lines), first: $(head -n 1 <<<"${errors}" | cut -c1-300)"
    fi
  done
}

check_canary() {
  local where=() entry gv plural hits ns
  # what the API shows of every instance goes through the same check
  for ns in $(fx_sql "SELECT DISTINCT namespace FROM catalog.instances"); do
    api GET "/api/v1/namespaces/${ns}/instances/iceberg-catalog" >/dev/null
  done
  if fx_service_pid engines >/dev/null; then
    for ns in $(fx_sql "SELECT DISTINCT namespace FROM engines.instances"); do
      API_BASE=$(fx_url engines) api GET "/api/v1/namespaces/${ns}/instances/mlflow" >/dev/null
    done
  fi
  grep -rlF "${CANARY}" "${LH_LOG_DIR}" >/dev/null 2>&1 && where+=("logs: $(grep -rlF "${CANARY}" "${LH_LOG_DIR}" | xargs -n1 basename | paste -sd, -)")
  grep -qF "${CANARY}" "${LAKEHOUSE_HOME}/topics.tsv" 2>/dev/null && where+=("topics")
  grep -qF "${CANARY}" "${LAKEHOUSE_HOME}/api-responses.log" 2>/dev/null && where+=("API responses")
  # every row of every table as text (the sealed column is ciphertext, so the canary is nowhere in clear)
  hits=$(fx_sql "SELECT string_agg(format('SELECT %L AS t FROM %I.%I x WHERE x::text LIKE %L',
      table_schema || '.' || table_name, table_schema, table_name, '%${CANARY}%'), ' UNION ALL ')
    FROM information_schema.tables WHERE table_schema IN ('${FX_SERVICES// /\',\'}', 'registry')
      AND table_type = 'BASE TABLE'" |
    { read -r q; [[ -n ${q} ]] && fx_sql "${q}"; } | sort -u | paste -sd, -)
  [[ -z ${hits} ]] || where+=("database tables ${hits}")
  for entry in ${FX_KINDS}; do
    gv=${entry%%:*}
    plural=${entry##*:}
    # Secrets may hold it (that is what they are for), not in their metadata
    if kube_get "$(kube_path "${gv}" "${plural}")" 2>/dev/null |
      jq -c '.items[]? | if .kind == "Secret" or "'"${plural}"'" == "secrets" then .metadata else . end' |
      grep -qF "${CANARY}"; then
      where+=("Kubernetes ${plural}")
    fi
  done
  ((${#where[@]} == 0)) || inv_fail "the canary secret leaked into: ${where[*]}"
}

# invariants: runs the whole check; returns 0 when every invariant holds.
invariants() {
  local took
  INV_FAILURES=0
  if ! took=$(await "${FX_CONVERGE_S}" converged); then
    inv_fail "not converged within ${FX_CONVERGE_S} s: $(not_converged | head -8 | paste -sd, -)"
  else
    fx_log "  converged in ${took} ms"
  fi
  check_objects
  check_events
  check_logs
  check_canary
  return "${INV_FAILURES}"
}
