# shellcheck shell=bash disable=SC2034 # variables shared with the other files of deploy/faults
# What each service's work is for the scenarios, and how its state is read: one "unit" of work per service
# (catalog, engines, notebooks: an instance created; sparkjobs: a job launched; access: a grant given), so
# that one scenario body serves every service (deploy/faults/run kill-mid-reconcile-engines ...).

# The kind of instance a service's unit creates (none for the services without instances).
fx_kind() {
  case $1 in
    catalog) printf 'iceberg-catalog\n' ;;
    engines) printf 'mlflow\n' ;;
    notebooks) printf 'jupyterhub\n' ;;
    *) return 1 ;;
  esac
}

# fx_up SVC: the service's first replica running, and the reference shape of its kind recorded.
fx_up() { fx_service_start "$1"; ensure_reference "$1"; }

# Services whose reconcile runs on the leader only (leader_leases row reconcile_<schema>).
fx_has_leader() { fx_kind "$1" >/dev/null; }

# The grants of the access scenarios go to this MLflow instance (engines-service) of the scenario's namespace.
FX_GRANT_TARGET=tracked

mlflow_body() { # NAME: an MLflow with typed S3 keys (the canary): no catalog, no OIDC client to wait for
  jq -cn --arg n "$1" --arg k "${CANARY}" \
    '{name: $n, spec: {storage: {bucket: "artifacts", endpoint: "http://minio.storage.svc:9000",
      region: "us-east-1", accessKeyId: "AKIA-FAULTS", secretAccessKey: $k}}}'
}

job_body() { # NAME: a script job on an explicit image (no profile needed)
  jq -cn --arg n "$1" '{name: $n, image: "apache/spark:3.5.3", source: {type: "script", script: "print(1)"}}'
}

# A hub is one per namespace: unit NAME of namespace NS lives in namespace NS-NAME.
hub_ns() { printf '%s-%s\n' "$1" "$2"; }

# The suite plays access-service for a hub (no Keycloak here): Secret <name>-oidc, then
# access.oidc-client-ready; notebooks-service keeps the client whether or not the hub exists yet.
hub_oidc_ready() { # NS NAME
  local secret
  secret=$(jq -cn --arg n "$2-oidc" --arg ns "$1" --arg id "$1.$2.jupyterhub" \
    '{apiVersion: "v1", kind: "Secret", metadata: {name: $n, namespace: $ns},
      data: {clientId: ($id | @base64), clientSecret: ("oidc-client-secret" | @base64),
        issuer: ("https://keycloak.example/realms/lakehouse" | @base64)}}')
  curl -sf -X POST -H 'Content-Type: application/json' -d "${secret}" \
    "${KUBE_URL}/api/v1/namespaces/$1/secrets" >/dev/null || true
  fx_events produce "${KAFKA_BOOTSTRAP}" lakehouse.access lakehouse.access.oidc-client-ready.v1 "$1/jupyterhub/$2" \
    "$(jq -cn --arg ns "$1" --arg n "$2" \
      '{namespace: $ns, kind: "jupyterhub", name: $n, clientId: "\($ns).\($n).jupyterhub", secretName: "\($n)-oidc"}')" \
    >/dev/null
}

# fx_prepare SVC NS NAME: what a unit needs before it is sent (a hub: its OIDC client, see hub_oidc_ready).
fx_prepare() { [[ $1 != notebooks ]] || hub_oidc_ready "$(hub_ns "$2" "$3")" "$3"; }

# fx_unit SVC NS NAME: one unit (fx_prepare first) of the service's work through API_BASE (default: its first replica); prints
# the HTTP status (000: no answer). FX_BODY_FILE: where the answer goes (a unit sent in the background).
fx_unit() {
  local svc=$1 ns=$2 name=$3
  local API_BASE=${API_BASE:-$(fx_url "${svc}")}
  case ${svc} in
    catalog) api POST "/api/v1/namespaces/${ns}/instances/iceberg-catalog" "$(catalog_body "${name}")" ;;
    engines) api POST "/api/v1/namespaces/${ns}/instances/mlflow" "$(mlflow_body "${name}")" ;;
    notebooks)
      api POST "/api/v1/namespaces/$(hub_ns "${ns}" "${name}")/instances/jupyterhub" "{\"name\":\"${name}\",\"spec\":{}}"
      ;;
    sparkjobs) api POST "/api/v1/namespaces/${ns}/spark-jobs" "$(job_body "${name}")" ;;
    access) api POST "/api/v1/namespaces/${ns}/instances/mlflow/${FX_GRANT_TARGET}/grants" "{\"subjects\":[\"user:${name}\"]}" ;;
  esac
}

fx_unit_ok() { [[ $1 == 201 || ($1 == 200 && $2 == access) ]]; }

# fx_units SVC NS PREFIX N [REPLICA]: N units at once (in the background), PREFIX1..PREFIXN through REPLICA; each
# answer lands in $LAKEHOUSE_HOME/units/NS-PREFIXi.code. Prints nothing; fx_units_wait waits for them.
fx_units() {
  local svc=$1 ns=$2 prefix=$3 n=$4 replica=${5:-$1} i pids=()
  mkdir -p "${LAKEHOUSE_HOME}/units"
  # prepared first (a producer JVM each, slow on a loaded machine): the units then go out at once
  for ((i = 1; i <= n; i++)); do
    fx_prepare "${svc}" "${ns}" "${prefix}${i}" &
    pids+=("$!")
  done
  wait "${pids[@]}"
  for ((i = 1; i <= n; i++)); do
    (FX_BODY_FILE="${LAKEHOUSE_HOME}/units/${ns}-${prefix}${i}.json" API_BASE=$(fx_url "${replica}") API_TIMEOUT=60 \
      fx_unit "${svc}" "${ns}" "${prefix}${i}" >"${LAKEHOUSE_HOME}/units/${ns}-${prefix}${i}.code") &
  done
}

fx_units_wait() { wait; }

# The answers of fx_units: "name:code" each.
fx_units_codes() { # NS PREFIX N
  local i
  for ((i = 1; i <= $3; i++)); do
    printf '%s%s:%s ' "$2" "${i}" "$(cat "${LAKEHOUSE_HOME}/units/$1-$2${i}.code" 2>/dev/null || printf '?')"
  done
}

# Is the unit's work there in the database (the service committed it)?
fx_unit_stored() { # SVC NS NAME
  case $1 in
    catalog | engines) [[ $(fx_sql "SELECT count(*) FROM $1.instances WHERE namespace = '$2' AND name = '$3'") == 1 ]] ;;
    notebooks) [[ $(fx_sql "SELECT count(*) FROM notebooks.instances WHERE namespace = '$(hub_ns "$2" "$3")' AND name = '$3'") == 1 ]] ;;
    sparkjobs) [[ $(fx_sql "SELECT count(*) FROM sparkjobs.jobs WHERE namespace = '$2' AND name = '$3'") == 1 ]] ;;
    access) [[ $(fx_sql "SELECT count(*) FROM access.grants WHERE namespace = '$2' AND name = '${FX_GRANT_TARGET}'
      AND subject_type = 'user' AND subject = '$3'") == 1 ]] ;;
  esac
}

# Has the service begun to act on a namespace's units (objects, applications, grants)?
fx_work_started() { # SVC NS
  case $1 in
    catalog | engines) (($(objects_in "$1" "$2") >= 3)) ;;
    notebooks) (($(managed_objects notebooks | awk -F'\t' -v p="$2-" 'split($1, a, "/") && index(a[2], p) == 1' | wc -l) >= 3)) ;;
    sparkjobs) (($(kube_get "/apis/sparkoperator.k8s.io/v1beta2/namespaces/$2/sparkapplications" | jq '.items | length') >= 1)) ;;
    access) (($(fx_sql "SELECT count(*) FROM access.grants WHERE namespace = '$2' AND subject <> '${FX_ADMIN_USER}'") >= 1)) ;;
  esac
}

objects_in() { managed_objects "$1" | awk -F'\t' -v ns="$2" 'split($1, p, "/") && p[2] == ns' | wc -l; }

# The access scenarios' target: an MLflow (engines-service), known to access-service (its grants answer 200).
ensure_grant_target() { # NS
  # with its reference shape: the MLflow is one of the instances the invariant check compares to it
  fx_up engines
  API_BASE=$(fx_url engines) api GET "/api/v1/namespaces/$1/instances/mlflow/${FX_GRANT_TARGET}" | grep -qx 200 ||
    API_BASE=$(fx_url engines) api POST "/api/v1/namespaces/$1/instances/mlflow" "$(mlflow_body "${FX_GRANT_TARGET}")" |
    grep -qx 201 || { sc_fail "could not create the MLflow ${FX_GRANT_TARGET} in $1: $(head -c 300 "${FX_LAST_BODY}")"; return 1; }
  await 60 grant_target_known "$1" >/dev/null || { sc_fail "access-service never learnt of $1/mlflow/${FX_GRANT_TARGET}"; return 1; }
}

grant_target_known() { [[ $(API_BASE=$(fx_url access) api GET "/api/v1/namespaces/$1/instances/mlflow/${FX_GRANT_TARGET}/grants") == 200 ]]; }

# The leader of a service's reconcile: "holder epoch" of its lease, and which replica holds it (from the
# replicas' logs: LeaderLock says "became the leader for reconcile_<schema> (epoch N)").
lease_of() { fx_sql "SELECT holder || ' ' || epoch FROM $1.leader_leases WHERE name = 'reconcile_$1' AND expires_at > now()"; }

leader_replica() { # SVC
  local epoch r
  epoch=$(fx_sql "SELECT epoch FROM $1.leader_leases WHERE name = 'reconcile_$1' AND expires_at > now()")
  [[ -n ${epoch} ]] || return 1
  for r in "$1" "${1}2"; do
    if grep -qF "became the leader for reconcile_$1 (epoch ${epoch})" "${LH_LOG_DIR}/${r}.log" 2>/dev/null; then
      printf '%s\n' "${r}"
      return 0
    fi
  done
  return 1
}

leader_is() { [[ $(leader_replica "$1") == "$2" ]]; }

# When REPLICA became the leader of SVC last, in epoch milliseconds (from its log line's time, UTC): what a
# poll on a loaded machine measures adds its own delay.
leader_since_ms() { # SVC REPLICA
  local line
  line=$(grep -F "became the leader for reconcile_$1 (epoch" "${LH_LOG_DIR}/$2.log" | tail -n 1 | cut -c1-23)
  [[ ${line} =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}\ [0-9:,]{12}$ ]] || return 1
  printf '%s\n' "$(($(TZ=UTC date -d "${line/,/.}" +%s%N) / 1000000))"
}
