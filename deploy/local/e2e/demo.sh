#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR/..
# One check of the whole suite (issue 11, "One check of the whole suite"): the README's demo end to end,
# across every service, on the local stack: catalog → Trino → Spark Connect → MLflow → NiFi →
# JupyterHub → a Spark job (launch → COMPLETED, driver log lines, relaunch, schedule, bad input), then
# the deletions and what they leave behind. Every call the README shows is sent with the README's own
# path and JSON (deploy/local/e2e/readme_calls.py reads them from README.md), so a README that drifts
# from the services fails here; each step fails with a message saying what the README promised and
# what happened instead.
#
#   deploy/local/e2e/demo.sh      (run by `deploy/local/lakehouse test` after Maven; LAKEHOUSE_DEMO=0 skips it)
#
# Needs PostgreSQL, Kafka and Keycloak running (`lakehouse test` or `lakehouse up --with-keycloak`: Trino,
# NiFi and JupyterHub wait for the OIDC client access-service makes in Keycloak) and the fast-jars of the
# five services and deploy/local-kit. Leaves a running stack alone: state in $LAKEHOUSE_HOME/e2e-demo, its
# own local Kubernetes API (LAKEHOUSE_E2E_DEMO_KUBE_PORT, 56473; simulator delay 0) and service ports
# (LAKEHOUSE_E2E_DEMO_PORT_BASE, 18280: catalog +1 … access +5, management +1000), database
# lakehouse_e2e_demo (recreated each run), consumer groups of its own placed at the topics' end, and a
# namespace of its own each run (demo-<hash>, standing for the README's "demo": Keycloak keeps OIDC
# clients across runs). Stops what it started, also on failure.
set -euo pipefail

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
BASE="${LAKEHOUSE_E2E_DEMO_PORT_BASE:-18280}"
E2E_NAME=demo
E2E_KUBE_PORT="${LAKEHOUSE_E2E_DEMO_KUBE_PORT:-56473}"
E2E_SERVICES="catalog:$((BASE + 1)) engines:$((BASE + 2)) notebooks:$((BASE + 3)) sparkjobs:$((BASE + 4)) access:$((BASE + 5))"
# shellcheck source=../lib/e2e.sh
source "${REPO_ROOT}/deploy/local/lib/e2e.sh"

NS="demo-$(printf '%s' "${RUN_ID}" | sha256sum | cut -c1-8)"
README="${REPO_ROOT}/README.md"
LIMIT_S="${LAKEHOUSE_E2E_DEMO_STEP_LIMIT_S:-60}"
STEP=setup

step() {
  STEP=$1
  e2e_log "${STEP}"
}
fail() {
  e2e_log "FAIL [${STEP}] $*"
  e2e_log "service logs: ${LH_LOG_DIR}"
  exit 1
}

# url TEMPLATE: a URL as the README writes it ($API, $ENGINES, $NOTEBOOKS, $SPARK, the local Kubernetes
# API on 56443, namespace demo) on this run's ports and namespace.
url() {
  local u=$1
  u=${u//\$API/http://127.0.0.1:$((BASE + 1))/api/v1}
  u=${u//\$ENGINES/http://127.0.0.1:$((BASE + 2))/api/v1}
  u=${u//\$NOTEBOOKS/http://127.0.0.1:$((BASE + 3))/api/v1}
  u=${u//\$SPARK/http://127.0.0.1:$((BASE + 4))/api/v1}
  u=${u//http:\/\/127.0.0.1:56443/${KUBE_URL}}
  in_ns "${u}"
}
ACCESS_API="http://127.0.0.1:$((BASE + 5))/api/v1"

# in_ns TEXT: the README's namespace "demo" (and what is named after it: the bucket Secret demo-warehouse,
# minio.demo.svc) replaced by this run's.
in_ns() { sed -E "s/\\bdemo\\b/${NS}/g" <<<"$1"; }

# readme_body METHOD URL [N]: the body of the README's N-th call METHOD URL, in this run's namespace.
readme_body() {
  local body
  body=$(python3 "${REPO_ROOT}/deploy/local/e2e/readme_calls.py" "${README}" "$@") ||
    fail "the README no longer shows the call '$1 $2' this check follows"
  in_ns "${body}"
}

# as_alice: ALICE kept a valid token. The realm's access tokens live 300 s and a loaded machine spends
# longer than that on the demo (CI saw a 401 in the Spark job part), so one older than 120 s is replaced.
ALICE_MINTED_MS=0
as_alice() {
  (($(now_ms) - ALICE_MINTED_MS < 120000)) && return 0
  ALICE=$(e2e_token alice) || true
  [[ -n ${ALICE} ]] || fail "no token for alice (${LH_TOKEN_MODE} tokens)"
  ALICE_MINTED_MS=$(now_ms)
}

# call CODES METHOD URL [BODY [TYPE]]: sends as alice; fails unless the status is one of CODES (a|b).
call() {
  local codes=$1 method=$2 target code
  target=$(url "$3")
  as_alice
  code=$(e2e_http "${method}" "${target}" "${ALICE}" "${4:-}" "${5:-application/json}")
  [[ "|${codes}|" == *"|${code}|"* ]] ||
    fail "${method} ${target} answered ${code}, the README expects ${codes}: $(head -c 1500 "${E2E_BODY}")"
}

# readme_call CODES METHOD URL [N [TYPE]]: the README's own call (its body) sent; see call.
readme_call() {
  local codes=$1 method=$2 target=$3 n=${4:-1}
  call "${codes}" "${method}" "${target}" "$(readme_body "${method}" "${target}" "${n}")" "${5:-application/json}"
}

# expect PYTHON_EXPR MESSAGE: the last body (`j`) must satisfy the expression.
expect() {
  [[ $(e2e_json "bool($1)") == true ]] || fail "$2: $(head -c 1500 "${E2E_BODY}")"
}

# phase_is URL PHASE: GET URL answers status.phase PHASE; records the phases seen in PHASES.
PHASES=()
phase_is() {
  local phase
  as_alice
  [[ $(e2e_http GET "$1" "${ALICE}") == 200 ]] || return 1
  phase=$(e2e_json 'j["status"]["phase"]') || return 1
  [[ ${#PHASES[@]} -gt 0 && ${PHASES[-1]} == "${phase}" ]] || PHASES+=("${phase}")
  [[ ${phase} == "$2" ]]
}

# await_phase URL PHASE: until the instance is in PHASE (at most LIMIT_S); prints the phases it went through.
await_phase() {
  local target t0
  target=$(url "$1")
  t0=$(now_ms)
  PHASES=()
  e2e_await "${LIMIT_S}" phase_is "${target}" "$2" ||
    fail "${target} went through ${PHASES[*]:-no answer}, never $2 within ${LIMIT_S} s: $(head -c 1500 "${E2E_BODY}")"
  e2e_log "  $(IFS=/; printf '%s' "${1##*/}") ${PHASES[*]// / → } ($(elapsed_since "${t0}"))"
}

gone() { as_alice && [[ $(e2e_http GET "$1" "${ALICE}") == 404 ]]; }

# await_gone URL: the README's "202, then 404".
await_gone() {
  local target
  target=$(url "$1")
  e2e_await "${LIMIT_S}" gone "${target}" || fail "${target} still answers $(e2e_http GET "${target}" "${ALICE}") after ${LIMIT_S} s"
}

# kube_objects PREFIX: kind/name of every object of the namespace named PREFIX or PREFIX-*, one a line.
KINDS="api/v1:configmaps api/v1:secrets api/v1:services api/v1:serviceaccounts api/v1:persistentvolumeclaims
  api/v1:pods apis/apps/v1:deployments apis/apps/v1:statefulsets apis/batch/v1:jobs
  apis/networking.k8s.io/v1:ingresses apis/networking.k8s.io/v1:networkpolicies
  apis/rbac.authorization.k8s.io/v1:roles apis/rbac.authorization.k8s.io/v1:rolebindings
  apis/postgresql.cnpg.io/v1:clusters apis/sparkoperator.k8s.io/v1beta2:sparkapplications"
kube_objects() {
  local kind names
  for kind in ${KINDS}; do
    names=$(curl -s --max-time 10 "${KUBE_URL}/${kind%%:*}/namespaces/${NS}/${kind##*:}" |
      python3 -c 'import json,sys; [print(i["metadata"]["name"]) for i in json.load(sys.stdin).get("items", [])]') ||
      fail "could not list ${kind##*:} in ${NS}"
    [[ -n ${names} ]] || continue
    grep -E "^$1(-|$)" <<<"${names}" | sed "s|^|${kind##*:}/|" || true
  done
}

# left_objects PREFIX [KEEP]: kube_objects PREFIX except those matching the regex KEEP (what stays).
left_objects() { kube_objects "$1" | grep -vE "${2:-^$}" || true; }
no_objects() { [[ -z $(left_objects "$@") ]]; }

# await_no_objects PREFIX WHAT [KEEP]: every object named after PREFIX goes (the garbage collector's pace),
# except those matching KEEP.
await_no_objects() {
  e2e_await "${LIMIT_S}" no_objects "$1" "${3:-}" || fail "$2 should be gone, still there: $(left_objects "$1" "${3:-}" | tr '\n' ' ')"
}

kube_get() { e2e_http GET "${KUBE_URL}/$1" ""; }

# seed_bucket: the namespace's bucket Secret, as the simulator seeds it in "demo" (demo-warehouse): the
# run's namespace holds <ns>-warehouse, the README's demo-warehouse renamed with the namespace.
seed_bucket() {
  local secret code
  [[ $(kube_get api/v1/namespaces/demo/secrets/demo-warehouse) == 200 ]] || fail "the simulator did not seed demo/demo-warehouse"
  secret=$(in_ns "$(cat "${E2E_BODY}")" | python3 -c '
import json, sys
s = json.load(sys.stdin)
m = s["metadata"]
s["metadata"] = {k: m[k] for k in ("name", "namespace", "labels", "annotations")}
print(json.dumps(s))')
  code=$(e2e_http POST "${KUBE_URL}/api/v1/namespaces" "" "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"${NS}\"}}")
  [[ ${code} == 201 ]] || fail "could not create the namespace ${NS}: ${code}"
  code=$(e2e_http POST "${KUBE_URL}/api/v1/namespaces/${NS}/secrets" "" "${secret}")
  [[ ${code} == 201 ]] || fail "could not write the bucket Secret ${NS}-warehouse: ${code} $(cat "${E2E_BODY}")"
}

catalog_part() {
  step "catalog: the namespace's buckets, then lakehouse-cat on the demo bucket"
  readme_call 200 GET '$API/namespaces/demo/buckets'
  expect "any(b['credentialsSecret'] == '${NS}-warehouse' and b['bucket'] == 'warehouse' for b in j)" \
    "the buckets list does not offer the bucket warehouse of ${NS}-warehouse"
  expect "'AWS_SECRET_ACCESS_KEY' not in json.dumps(j) and 'demo-secret-key' not in json.dumps(j)" "the buckets list shows the keys"
  readme_call '201|202' POST '$API/namespaces/demo/instances/iceberg-catalog'
  await_phase '$API/namespaces/demo/instances/iceberg-catalog/lakehouse-cat' Ready
  expect "all(c['status'] == 'True' for c in j['status']['conditions'])" "Ready, but not every condition is True"
  e2e_log "  conditions: $(e2e_json "' '.join(c['type'] for c in j['status']['conditions'])")"

  step "catalog: the root principal Secret engines use"
  [[ $(kube_get "api/v1/namespaces/${NS}/secrets/lakehouse-cat-root-principal") == 200 ]] ||
    fail "no Secret lakehouse-cat-root-principal"
  expect "sorted(j['data']) == ['catalogName', 'catalogUri', 'clientId', 'clientSecret']" \
    "the README names the keys clientId, clientSecret, catalogUri, catalogName"

  step "catalog: capacity changes, fixed fields answer 422"
  readme_call 200 PATCH '$API/namespaces/demo/instances/iceberg-catalog/lakehouse-cat' 1 application/merge-patch+json
  expect "j['spec']['resources']['memory'] == '2Gi'" "the patch answer does not show memory 2Gi"
  call 422 PATCH '$API/namespaces/demo/instances/iceberg-catalog/lakehouse-cat' '{"spec":{"storage":{"bucket":"other"}}}' \
    application/merge-patch+json
  expect "any('storage' in e.get('field', '') for e in j.get('errors', []))" "the 422 does not name spec.storage"
}

trino_part() {
  step "trino: sql on the catalog (waits for its OIDC client from access-service, then Ready)"
  readme_call '201|202' POST '$ENGINES/namespaces/demo/instances/trino'
  readme_call 200 GET '$ENGINES/namespaces/demo/instances/trino/sql'
  await_phase '$ENGINES/namespaces/demo/instances/trino/sql' Ready

  step "trino: catalog properties by reference, never the keys"
  readme_call 200 GET 'http://127.0.0.1:56443/api/v1/namespaces/demo/configmaps/sql-catalog'
  expect "'\${ENV:' in j['data']['lakehouse.properties']" "lakehouse.properties does not read its secrets by \${ENV:...}"
  expect "'demo-secret-key' not in json.dumps(j) and 'demo-access-key' not in json.dumps(j)" "lakehouse.properties holds the bucket's keys"

  step "trino: rules answer 422 and change nothing"
  readme_call 422 POST '$ENGINES/namespaces/demo/instances/trino' 2
  expect "any('workerMemory' in e.get('field', '') for e in j.get('errors', []))" "the 422 does not name workerMemory"
  call 404 GET '$ENGINES/namespaces/demo/instances/trino/small'

  step "trino: the access rules from the grants, more workers"
  readme_call 200 GET 'http://127.0.0.1:56443/api/v1/namespaces/demo/configmaps/sql-access'
  expect "isinstance(json.loads(j['data']['rules.json']), dict)" "sql-access has no rules.json"
  expect "'alice' in j['data']['rules.json']" "the deployer alice is not granted in rules.json"
  readme_call 200 PATCH '$ENGINES/namespaces/demo/instances/trino/sql' 1 application/merge-patch+json
  worker_replicas() { [[ $(kube_get "apis/apps/v1/namespaces/${NS}/deployments/sql-worker") == 200 && $(e2e_json "j['spec']['replicas']") == 3 ]]; }
  e2e_await "${LIMIT_S}" worker_replicas || fail "the sql-worker Deployment did not get 3 replicas"
}

engines_part() {
  step "spark-connect, mlflow and nifi on the catalog"
  readme_call '201|202' POST '$ENGINES/namespaces/demo/instances/spark-connect'
  readme_call '201|202' POST '$ENGINES/namespaces/demo/instances/mlflow'
  readme_call '201|202' POST '$ENGINES/namespaces/demo/instances/nifi'
  await_phase '$ENGINES/namespaces/demo/instances/spark-connect/spark' Ready
  await_phase '$ENGINES/namespaces/demo/instances/mlflow/tracking' Ready
  await_phase '$ENGINES/namespaces/demo/instances/nifi/flows' Ready

  step "the catalog cannot be deleted while engines use it"
  call 409 DELETE '$API/namespaces/demo/instances/iceberg-catalog/lakehouse-cat'
  expect "all(n in j['detail'] for n in ('trino/sql', 'spark-connect/spark'))" "the 409 does not name the engines using the catalog"
}

notebooks_part() {
  step "jupyterhub: notebooks wired to the catalog, Trino, Spark Connect and MLflow"
  readme_call '201|202' POST '$NOTEBOOKS/namespaces/demo/instances/jupyterhub'
  await_phase '$NOTEBOOKS/namespaces/demo/instances/jupyterhub/notebooks' Ready
  readme_call 200 GET 'http://127.0.0.1:56443/api/v1/namespaces/demo/configmaps/notebooks-hub-config'
  expect "'c.KubeSpawner.environment' in j['data']['jupyterhub_config.py']" "jupyterhub_config.py sets no KubeSpawner.environment"
  expect "'secretKeyRef' in j['data']['jupyterhub_config.py']" "the user servers do not get their secrets by secretKeyRef"
  expect "all(v in j['data']['jupyterhub_config.py'] for v in ('sql', 'spark', 'tracking', 'lakehouse-cat'))" \
    "jupyterhub_config.py is not wired to sql, spark, tracking and lakehouse-cat"
  expect "'demo-secret-key' not in json.dumps(j)" "the hub's ConfigMap holds the bucket's secret key"

  step "jupyterhub: a second hub is refused naming the first (409)"
  readme_call 409 POST '$NOTEBOOKS/namespaces/demo/instances/jupyterhub' 2
  expect "'notebooks' in json.dumps(j)" "the 409 does not name the hub notebooks"
}

job_state_is() { as_alice && [[ $(e2e_http GET "$1" "${ALICE}") == 200 && $(e2e_json "j['state']") == "$2" ]]; }

sparkjobs_part() {
  local detail relaunched
  step "spark job: daily-load on the spark profile, NEW → … → COMPLETED, driver lines"
  readme_call '201|202' POST '$SPARK/namespaces/demo/spark-jobs'
  detail=$(url '$SPARK/namespaces/demo/spark-jobs/daily-load')
  e2e_await "${LIMIT_S}" job_state_is "${detail}" COMPLETED ||
    fail "daily-load is $(e2e_json "j.get('state')"), not COMPLETED, after ${LIMIT_S} s: $(head -c 1500 "${E2E_BODY}")"
  readme_call 200 GET '$SPARK/namespaces/demo/spark-jobs/daily-load'
  expect "j['profile'] == 'spark' and j['sourceType'] == 'script'" "the detail does not show the script on profile spark"
  readme_call 200 GET '$SPARK/namespaces/demo/spark-jobs'
  expect "any(i['name'] == 'daily-load' and i['state'] == 'COMPLETED' for i in j['items'])" "the history does not list daily-load COMPLETED"
  readme_call 200 GET '$SPARK/namespaces/demo/spark-jobs/daily-load/logs?tail=50'
  expect "len(j['lines']) > 0" "the driver's last lines are empty"
  e2e_log "  driver: $(e2e_json "j['lines'][-1]")"
  [[ $(kube_get "api/v1/namespaces/${NS}/configmaps/sparkjob-daily-load") == 200 ]] || fail "no ConfigMap sparkjob-daily-load holds the script"

  step "audit log: daily-load's launch, by alice, and the states it reached"
  job_audited() {
    as_alice && [[ $(e2e_http GET "${ACCESS_API}/audit?namespace=${NS}&limit=1000" "${ALICE}") == 200 &&
      $(e2e_json "{('sparkjob.submitted', 'alice'), ('sparkjob.state-changed to COMPLETED', 'alice')} <= {(i['action'], i['actor']) for i in j['items'] if i['target'] == '${NS}/sparkjob/daily-load'}") == true ]]
  }
  e2e_await "${LIMIT_S}" job_audited ||
    fail "the audit log does not show daily-load submitted and COMPLETED by alice: $(head -c 1500 "${E2E_BODY}")"

  step "spark job: relaunch as is and with changes"
  readme_call '201|202' POST '$SPARK/namespaces/demo/spark-jobs/daily-load/relaunch'
  relaunched=$(e2e_json "j['name']")
  [[ ${relaunched} == daily-load-* ]] || fail "the relaunch is named ${relaunched}, not daily-load-xxxxx"
  readme_call '201|202' POST '$SPARK/namespaces/demo/spark-jobs/daily-load/relaunch' 2
  expect "j['name'].startswith('daily-load-')" "the relaunch with changes is not named daily-load-xxxxx"
  e2e_await "${LIMIT_S}" job_state_is "$(url "\$SPARK/namespaces/demo/spark-jobs/${relaunched}")" COMPLETED ||
    fail "the relaunch ${relaunched} did not complete"

  step "spark schedule: nightly-load, run now, its runs"
  readme_call '201|202' POST '$SPARK/namespaces/demo/spark-schedules'
  expect "len(j.get('nextRuns', [])) > 0" "the schedule does not show its next runs"
  readme_call '200|201|202' POST '$SPARK/namespaces/demo/spark-schedules/nightly-load/run'
  runs_listed() { as_alice && [[ $(e2e_http GET "$1" "${ALICE}") == 200 && $(e2e_json "len(j['items'])") -ge 1 ]]; }
  e2e_await "${LIMIT_S}" runs_listed "$(url '$SPARK/namespaces/demo/spark-jobs?schedule=nightly-load')" ||
    fail "the schedule's run is not in its history"

  step "spark job: bad input is a 422 naming every field, nothing created"
  call 200 GET '$SPARK/namespaces/demo/spark-jobs'
  local before
  before=$(e2e_json "len(j['items'])")
  readme_call 422 POST '$SPARK/namespaces/demo/spark-jobs' 2
  expect "{'source.branch', 'sparkConf'} <= {e['field'].split('[')[0].split('.spark')[0] for e in j['errors']}" \
    "the 422 does not name source.branch and sparkConf"
  call 200 GET '$SPARK/namespaces/demo/spark-jobs'
  expect "len(j['items']) == ${before}" "the refused launch changed the history"
}

deletions_part() {
  local labels
  step "delete trino: its objects go, access-service removes its OIDC client"
  call 200 GET "${ACCESS_API}/namespaces/demo/instances/trino/sql/oidc-client"
  expect "j['state'] == 'Ready'" "sql's OIDC client is not Ready before the deletion"
  readme_call 202 DELETE '$ENGINES/namespaces/demo/instances/trino/sql'
  await_gone '$ENGINES/namespaces/demo/instances/trino/sql'
  await_no_objects sql "every object of the trino sql"
  client_gone() { gone "$(url "${ACCESS_API}/namespaces/demo/instances/trino/sql/oidc-client")"; }
  e2e_await "${LIMIT_S}" client_gone || fail "access-service still has sql's OIDC client: $(head -c 500 "${E2E_BODY}")"

  step "delete jupyterhub: the hub's objects go, the users' volumes stay"
  # A user's volume as KubeSpawner makes it (claim-<hub>-<user>, the hub's common_labels).
  [[ $(kube_get "api/v1/namespaces/${NS}/configmaps/notebooks-hub-config") == 200 ]] || fail "no notebooks-hub-config"
  labels=$(e2e_json "json.dumps(__import__('ast').literal_eval(j['data']['jupyterhub_config.py'].split('c.KubeSpawner.common_labels = ')[1].split('\n')[0]))") ||
    fail "no KubeSpawner.common_labels in jupyterhub_config.py"
  [[ $(e2e_http POST "${KUBE_URL}/api/v1/namespaces/${NS}/persistentvolumeclaims" "" "{\"apiVersion\": \"v1\", \"kind\": \"PersistentVolumeClaim\", \"metadata\": {\"name\": \"claim-notebooks-alice\",
    \"labels\": ${labels}}, \"spec\": {\"accessModes\": [\"ReadWriteOnce\"], \"resources\": {\"requests\": {\"storage\": \"10Gi\"}}}}") == 201 ]] ||
    fail "could not write alice's volume: $(cat "${E2E_BODY}")"
  readme_call 202 DELETE '$NOTEBOOKS/namespaces/demo/instances/jupyterhub/notebooks'
  await_gone '$NOTEBOOKS/namespaces/demo/instances/jupyterhub/notebooks'
  await_no_objects notebooks "every object of the hub notebooks"
  [[ $(kube_get "api/v1/namespaces/${NS}/persistentvolumeclaims/claim-notebooks-alice") == 200 ]] ||
    fail "the user's volume claim-notebooks-alice went with the hub (the README: it stays)"

  step "delete the other engines, then the catalog: Polaris, its database and Secrets go, the bucket stays"
  call 202 DELETE '$ENGINES/namespaces/demo/instances/spark-connect/spark'
  call 202 DELETE '$ENGINES/namespaces/demo/instances/mlflow/tracking'
  call 202 DELETE '$ENGINES/namespaces/demo/instances/nifi/flows'
  await_gone '$ENGINES/namespaces/demo/instances/spark-connect/spark'
  await_gone '$ENGINES/namespaces/demo/instances/mlflow/tracking'
  await_gone '$ENGINES/namespaces/demo/instances/nifi/flows'
  catalog_deletable() { as_alice && [[ $(e2e_http DELETE "$(url '$API/namespaces/demo/instances/iceberg-catalog/lakehouse-cat')" "${ALICE}") == 202 ]]; }
  # The catalog learns of the engines' deletion through Kafka: 409 until then.
  e2e_await "${LIMIT_S}" catalog_deletable || fail "the catalog is still refused for deletion: $(head -c 500 "${E2E_BODY}")"
  await_gone '$API/namespaces/demo/instances/iceberg-catalog/lakehouse-cat'
  await_no_objects lakehouse-cat "Polaris, its database and Secrets"
  # The namespace's spark account (ServiceAccount, Role, RoleBinding "spark") is sparkjobs-service's, not the
  # spark-connect instance's: it stays for the namespace's jobs.
  await_no_objects spark "every object of the spark-connect spark" '^(serviceaccounts|roles|rolebindings)/spark$'
  await_no_objects tracking "every object of the mlflow tracking"
  await_no_objects flows "every object of the nifi flows"
  [[ $(kube_get "api/v1/namespaces/${NS}/secrets/${NS}-warehouse") == 200 ]] || fail "the bucket Secret ${NS}-warehouse went"
  e2e_log "  left in ${NS}: $(kube_objects '.*' | tr '\n' ' ')"
}

main() {
  local t0
  t0=$(now_ms)
  e2e_stack_up keycloak
  as_alice
  seed_bucket
  e2e_log "stack ready after $(elapsed_since "${t0}"), namespace ${NS} stands for the README's demo"

  catalog_part
  trino_part
  engines_part
  notebooks_part
  sparkjobs_part
  deletions_part
  e2e_log "passed in $(elapsed_since "${t0}")"
}

main "$@"
