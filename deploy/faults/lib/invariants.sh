# shellcheck shell=bash disable=SC2034 # variables shared with the other files of deploy/faults
# The ONE invariant check run after every fault (quality bar, "Reliability"):
#   1. converged: no instance left in Deleting, every instance Ready, no outbox row unpublished;
#   2. objects: every instance has exactly the objects of the reference instance (same kinds, same names
#      after its own name), no object of an instance the database does not have (orphans), none twice;
#   3. events: every outbox row is on its topic (published at least once); every valid membership event the
#      suite produced is in catalog-service's inbox and the roles projection is what the suite set (applied
#      once: the inbox key makes a second application impossible, the projection shows a lost one);
#   4. logs: no ERROR line since the scenario began, except the ones the scenario expects (FX_EXPECTED_ERRORS);
#   5. the canary S3 secret typed into every create request appears in no log, no topic, no database column
#      (the sealed column holds ciphertext), no API response and no Kubernetes object but its Secret.
# Prints one line per failure; returns the number of failures (0 = all hold).

FX_CONVERGE_S="${LAKEHOUSE_FAULTS_CONVERGE_S:-120}"
FX_TEMPLATE="${LAKEHOUSE_HOME}/reference-objects.txt"
FX_EXPECTED_ROLES="${LAKEHOUSE_HOME}/expected-roles.txt"
FX_PRODUCED_IDS="${LAKEHOUSE_HOME}/produced-valid-ids.txt"
FX_EXPECTED_ERRORS=""

inv_fail() {
  printf '[faults]   INVARIANT FAILED: %s\n' "$*" >&2
  printf '%s\n' "$*" >>"${FX_FAILURES}"
  INV_FAILURES=$((INV_FAILURES + 1))
}

converged() {
  [[ $(fx_sql "SELECT count(*) FROM catalog.instances WHERE deleting OR phase <> 'Ready'") == 0 ]] &&
    [[ $(fx_sql "SELECT count(*) FROM catalog.outbox WHERE published_at IS NULL") == 0 ]]
}

# The objects of one instance with its namespace and name replaced, e.g. "deployments/@" or "secrets/@-s3".
instance_shape() { # UID NS NAME
  managed_objects | awk -F'\t' -v uid="$1" '$2 == uid { print $1 }' |
    sed -E "s#^([^/]+)/$2/$3#\1/@#" | sort
}

# Records the reference shape from a healthy instance (the first Ready one, before any fault).
record_reference_shape() { # NS NAME
  local uid
  uid=$(fx_sql "SELECT uid FROM catalog.instances WHERE namespace = '$1' AND name = '$2'")
  instance_shape "${uid}" "$1" "$2" >"${FX_TEMPLATE}"
  fx_log "reference objects of an instance: $(tr '\n' ' ' <"${FX_TEMPLATE}")"
}

check_objects() {
  local ns name uid shape missing extra uids orphans
  while IFS='|' read -r ns name uid; do
    [[ -n ${ns} ]] || continue
    shape=$(instance_shape "${uid}" "${ns}" "${name}")
    # Jobs finish and may be cleaned up by their TTL: a missing one is fine, an extra one is not.
    missing=$(comm -23 <(grep -v '^jobs/' "${FX_TEMPLATE}") <(printf '%s\n' "${shape}" | grep -v '^jobs/' | sort))
    extra=$(comm -13 "${FX_TEMPLATE}" <(printf '%s\n' "${shape}" | sed '/^$/d'))
    [[ -z ${missing} ]] || inv_fail "${ns}/${name}: missing $(tr '\n' ' ' <<<"${missing}")"
    [[ -z ${extra} ]] || inv_fail "${ns}/${name}: unexpected $(tr '\n' ' ' <<<"${extra}")"
  done < <(fx_sql "SELECT namespace, name, uid FROM catalog.instances")
  uids=$(fx_sql "SELECT uid FROM catalog.instances")
  orphans=$(managed_objects | awk -F'\t' -v known="${uids//$'\n'/ }" \
    'BEGIN { n = split(known, k, " "); for (i = 1; i <= n; i++) ok[k[i]] = 1 } $2 != "-" && !($2 in ok) { print $1 }')
  [[ -z ${orphans} ]] || inv_fail "objects of no instance (orphans): $(tr '\n' ' ' <<<"${orphans}")"
}

check_events() {
  local dump missing ids consumed roles
  dump="${LAKEHOUSE_HOME}/topics.tsv"
  # shellcheck disable=SC2046 # one topic per word
  fx_events dump "${KAFKA_BOOTSTRAP}" $(fx_sql "SELECT DISTINCT topic FROM catalog.outbox UNION
      SELECT unnest(ARRAY['lakehouse.instances', 'lakehouse.access', 'lakehouse.instances.dlq', 'lakehouse.access.dlq'])") \
    >"${dump}" || { inv_fail "could not read the topics"; return; }
  missing=$(comm -23 <(fx_sql "SELECT event_id FROM catalog.outbox ORDER BY 1" | sort -u) <(cut -f2 "${dump}" | sort -u))
  [[ -z ${missing} ]] || inv_fail "outbox rows never seen on their topic: $(wc -l <<<"${missing}")"
  if [[ -s ${FX_PRODUCED_IDS} ]]; then
    consumed=$(comm -23 <(sort -u "${FX_PRODUCED_IDS}") <(fx_sql "SELECT event_id FROM catalog.inbox" | sort -u))
    [[ -z ${consumed} ]] || inv_fail "membership events never applied by catalog-service: ${consumed//$'\n'/ }"
  fi
  roles=$(fx_sql "SELECT namespace || '|' || subject_type || '|' || subject || '|' || role FROM catalog.member_roles
    WHERE namespace LIKE '${FX_NS}-%' ORDER BY 1")
  if [[ ${roles} != "$(sort -u "${FX_EXPECTED_ROLES}" 2>/dev/null)" ]]; then
    inv_fail "roles projection is '${roles//$'\n'/, }', expected '$(sort -u "${FX_EXPECTED_ROLES}" 2>/dev/null | paste -sd, -)'"
  fi
}

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

check_logs() {
  local f errors
  for f in "${LH_LOG_DIR}"/catalog*.log; do
    [[ -f ${f} ]] || continue
    errors=$(new_log_lines "${f}" | grep -E '^[0-9TZ:.+-]+ ERROR|\bERROR \[' | without_foreign_dead_letters || true)
    if [[ -n ${FX_EXPECTED_ERRORS} && -n ${errors} ]]; then
      errors=$(grep -Ev "${FX_EXPECTED_ERRORS}" <<<"${errors}" || true)
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
  grep -rlF "${CANARY}" "${LH_LOG_DIR}" >/dev/null 2>&1 && where+=("logs: $(grep -rlF "${CANARY}" "${LH_LOG_DIR}" | xargs -n1 basename | paste -sd, -)")
  grep -qF "${CANARY}" "${LAKEHOUSE_HOME}/topics.tsv" 2>/dev/null && where+=("topics")
  grep -qF "${CANARY}" "${LAKEHOUSE_HOME}/api-responses.log" 2>/dev/null && where+=("API responses")
  # every row of every table as text (the sealed column is ciphertext, so the canary is nowhere in clear)
  hits=$(fx_sql "SELECT string_agg(format('SELECT %L AS t FROM %I.%I x WHERE x::text LIKE %L',
      table_schema || '.' || table_name, table_schema, table_name, '%${CANARY}%'), ' UNION ALL ')
    FROM information_schema.tables WHERE table_schema IN ('catalog', 'registry') AND table_type = 'BASE TABLE'" |
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
    inv_fail "not converged within ${FX_CONVERGE_S} s: $(fx_sql "SELECT namespace || '/' || name || ' ' || phase ||
      CASE WHEN deleting THEN ' (deleting)' ELSE '' END FROM catalog.instances WHERE deleting OR phase <> 'Ready'" |
      paste -sd, -); unpublished outbox rows: $(fx_sql "SELECT count(*) FROM catalog.outbox WHERE published_at IS NULL")"
  else
    fx_log "  converged in ${took} ms"
  fi
  check_objects
  check_events
  check_logs
  check_canary
  return "${INV_FAILURES}"
}
