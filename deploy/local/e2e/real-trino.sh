#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR/..
# The seed's Trino example run for real against what the services generate (issue "Real engines in
# the test bed"): an iceberg-catalog and a trino are created through the APIs with a real Keycloak
# token, then the Trino coordinator and worker run as local processes from the Deployments,
# ConfigMaps and Secrets engines-service generated (deploy/local-kit `pod`: env resolved from the
# Secrets, volumes written as files, only addresses and paths rewritten), with authentication on.
# The seed's SQL runs as alice (the deployer, granted automatically) over HTTPS with her token and
# is refused for bob (no grant); the table's Parquet files and Iceberg metadata must be in the bucket.
# Polaris runs as the Iceberg reference REST server and the bucket as S3Mock (see real_engines.sh).
#
#   deploy/local/e2e/real-trino.sh     (run by `deploy/local/lakehouse test` after Maven; LAKEHOUSE_REAL_ENGINES=0 skips it)
#
# Needs PostgreSQL, Kafka and Keycloak running (`lakehouse test` or `lakehouse up --with-keycloak`)
# and the fast-jars of catalog-, engines- and access-service and deploy/local-kit. Leaves a running
# stack alone (lib/e2e.sh): state in $LAKEHOUSE_HOME/e2e-trino, its own local Kubernetes API and service ports,
# database lakehouse_e2e_trino (recreated each run), consumer groups of its own placed at the topics'
# end. Stops what it started, also on failure. Needs about 4 GB of memory and, the first time, ~1 GB
# of downloads from Maven Central (kept in $LAKEHOUSE_HOME/real-engines).
set -euo pipefail

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
E2E_NAME=trino
E2E_KUBE_PORT="${LAKEHOUSE_E2E_TRINO_KUBE_PORT:-56463}"
E2E_SERVICES="catalog:${LAKEHOUSE_E2E_TRINO_CATALOG_PORT:-18181} engines:${LAKEHOUSE_E2E_TRINO_ENGINES_PORT:-18182} access:${LAKEHOUSE_E2E_TRINO_ACCESS_PORT:-18185}"
# shellcheck source=../lib/e2e.sh
source "${REPO_ROOT}/deploy/local/lib/e2e.sh"
# shellcheck source=../lib/real_engines.sh
source "${REPO_ROOT}/deploy/local/lib/real_engines.sh"

S3_PORT="${LAKEHOUSE_E2E_S3_PORT:-19390}"
REST_PORT="${LAKEHOUSE_E2E_REST_PORT:-18381}"
COORDINATOR_HTTP="${LAKEHOUSE_E2E_TRINO_HTTP_PORT:-18480}"
COORDINATOR_HTTPS="${LAKEHOUSE_E2E_TRINO_HTTPS_PORT:-18443}"
WORKER_HTTP="${LAKEHOUSE_E2E_TRINO_WORKER_PORT:-18490}"
START_LIMIT_S="${LAKEHOUSE_E2E_TRINO_START_LIMIT_S:-300}"
# A namespace of its own each run: Keycloak keeps the instances' OIDC clients across runs, and a client
# of another instance under the same id is never adopted.
NS="rt-$(printf '%s' "${RUN_ID}" | sha256sum | cut -c1-8)"
WORK="${LAKEHOUSE_HOME}/work"
LOCAL_KIT_CP="${REPO_ROOT}/deploy/local-kit/target/local-kit-0.1.0-SNAPSHOT.jar:${REPO_ROOT}/deploy/local-kit/target/lib/*"

# start_trino_pod NAME DEPLOYMENT [--listen-port C=L ...]: the generated Deployment's container as a process.
start_trino_pod() {
  local name=$1 deployment=$2 root="${WORK}/$1"
  shift 2
  rm -rf "${root}" && mkdir -p "${root}"
  run_bg "${name}" java -cp "${LOCAL_KIT_CP}" io.lakehouse.local.Main pod --api "${KUBE_URL}" --namespace "${NS}" \
    --deployment "${deployment}" --root "${root}" --dist "${TRINO_DIST}" --java-home "${TRINO_JAVA}" \
    --url "http://cat.${NS}.svc:8181/api/catalog=http://127.0.0.1:${REST_PORT}" \
    --host "minio.storage.svc:9000=127.0.0.1:${S3_PORT}" \
    --address "sql:8080=127.0.0.1:${COORDINATOR_HTTP}" \
    --path "/etc/trino=${root}/etc" --path "/data/trino=${root}/data" --path "/usr/lib/trino=${TRINO_DIST}" "$@"
}

# sql USER_TOKEN STATEMENT...: runs the statements over HTTPS as the token's user; prints the rows.
sql() {
  local token=$1
  shift
  python3 "${REPO_ROOT}/deploy/local/e2e/trino_client.py" "https://127.0.0.1:${COORDINATOR_HTTPS}" \
    "${WORK}/ca.crt" "${token}" "$@"
}

main() {
  local t0 trino rows objects
  t0=$(now_ms)
  TRINO_JAVA=$(real_engines_java) || die "Trino needs a JDK >= 24 (set LAKEHOUSE_TRINO_JAVA_HOME)"
  real_engines_fetch_trino
  real_stack_up
  start_stand_ins
  e2e_log "stack and stand-ins ready after $(elapsed_since "${t0}")"
  write_bucket_secret
  ALICE=$(e2e_token alice)
  BOB=$(e2e_token bob)
  local catalog="http://127.0.0.1:$(svc_port "$(cut -d' ' -f1 <<<"${SERVICES}")")/api/v1/namespaces/${NS}"
  local engines="http://127.0.0.1:$(svc_port "$(cut -d' ' -f2 <<<"${SERVICES}")")/api/v1/namespaces/${NS}"
  api POST "${catalog}/instances/iceberg-catalog" '{"name": "cat", "spec": {"storage": {"bucket": "warehouse",
    "endpoint": "http://minio.storage.svc:9000", "region": "us-east-1", "credentialsSecret": "warehouse-bucket"}}}' >/dev/null
  await_phase "${catalog}/instances/iceberg-catalog/cat" Ready 120
  api POST "${engines}/instances/trino" '{"name": "sql", "spec": {"catalog": "cat", "workers": 1}}' >/dev/null
  await_phase "${engines}/instances/trino/sql" Ready 120
  e2e_log "catalog and trino Ready through the APIs after $(elapsed_since "${t0}")"

  # The CA of the in-process certificate Trino serves HTTPS with, as a pod in the namespace trusts it.
  curl -s --max-time 10 "${KUBE_URL}/api/v1/namespaces/${NS}/secrets/sql-tls" |
    python3 -c 'import base64,json,sys; sys.stdout.write(base64.b64decode(json.load(sys.stdin)["data"]["ca.crt"]).decode())' \
      >"${WORK}/ca.crt" || die "no ca.crt in sql-tls"

  # The coordinator finds its own discovery service at localhost:8080: where it listens here.
  start_trino_pod trino-coordinator sql --listen-port "8080=${COORDINATOR_HTTP}" --listen-port "8443=${COORDINATOR_HTTPS}" \
    --host "localhost:8080=127.0.0.1:${COORDINATOR_HTTP}"
  trino=${LAST_PID}
  wait_for_line "${LH_LOG_DIR}/trino-coordinator.log" "SERVER STARTED" "${START_LIMIT_S}" "${trino}" ||
    die "the generated Trino coordinator did not start: $(grep -m3 -E 'ERROR|Error|Exception' "${LH_LOG_DIR}/trino-coordinator.log" || true)"
  start_trino_pod trino-worker sql-worker --listen-port "8080=${WORKER_HTTP}"
  wait_for_line "${LH_LOG_DIR}/trino-worker.log" "SERVER STARTED" "${START_LIMIT_S}" "${LAST_PID}" ||
    die "the generated Trino worker did not start: $(grep -m3 -E 'ERROR|Error|Exception' "${LH_LOG_DIR}/trino-worker.log" || true)"
  e2e_log "real Trino coordinator and worker started from the generated objects after $(elapsed_since "${t0}")"

  rows=$(sql "${ALICE}" --await-workers \
    "CREATE SCHEMA lakehouse.sales" \
    "CREATE TABLE lakehouse.sales.orders AS SELECT 1 AS id, 'test' AS label" \
    "SELECT * FROM lakehouse.sales.orders") || die "the seed's SQL failed as alice: ${rows}"
  [[ ${rows} == *'[[1, "test"]]'* ]] || die "SELECT * FROM lakehouse.sales.orders gave ${rows}"
  e2e_log "the seed's SQL ran as alice: ${rows##*$'\n'}"
  if rows=$(sql "${BOB}" "SELECT * FROM lakehouse.sales.orders" 2>&1); then
    die "bob, who holds no grant, read the table: ${rows}"
  fi
  [[ ${rows} == *"Access Denied"* ]] || die "bob was refused, but not by the access rules: ${rows}"
  e2e_log "refused for bob (no grant): ${rows##*ERROR: }"

  objects=$(bucket_keys sales/)
  grep -qE '^sales/orders-[0-9a-f]+/data/.*\.parquet$' <<<"${objects}" || die "no Parquet file under sales/orders-<uuid>/data: ${objects}"
  grep -qE '^sales/orders-[0-9a-f]+/metadata/.*\.metadata\.json$' <<<"${objects}" || die "no Iceberg metadata under sales/orders-<uuid>/metadata: ${objects}"
  e2e_log "bucket: $(wc -l <<<"${objects}") objects under sales/orders-<uuid>/ (Parquet data and Iceberg metadata)"
  # A fresh token: on a loaded machine the run outlasts the first one (Keycloak's 5-minute access tokens).
  ALICE=$(e2e_token alice)
  # Deleted through the APIs: access-service removes the OIDC client from Keycloak.
  api DELETE "${engines}/instances/trino/sql" >/dev/null
  await_gone "${engines}/instances/trino/sql" 60
  api DELETE "${catalog}/instances/iceberg-catalog/cat" >/dev/null
  e2e_log "passed in $(elapsed_since "${t0}")"
}

main "$@"
