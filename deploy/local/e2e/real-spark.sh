#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR/..
# The seed's Spark Connect example run for real against what the services generate (issue "Real engines in the
# test bed"): an iceberg-catalog and a spark-connect (token required, the default) are created through the APIs with
# a real Keycloak token, then the Spark Connect server runs as a local process from the Deployment, ConfigMap and
# Secrets engines-service generated (deploy/local-kit `pod`: the pod's own start script, env resolved from the
# Secrets, spark-defaults.conf written from the ConfigMap, only addresses, paths and the listen port rewritten) on
# Spark 4.0's jars from Maven Central. The seed's SQL runs through the Spark Connect JVM client with the instance's
# token (read from its Secret, as a pod of the namespace gets it) and is refused with a wrong one; the table's
# Parquet files and Iceberg metadata must be in the bucket. Polaris runs as the Iceberg reference REST server and
# the bucket as S3Mock (see real_engines.sh). The pod's TLS sidecar (Envoy, no artifact on Maven Central) does not
# run: the client reaches the server where the sidecar does, on 127.0.0.1, and sends the token in the clear there.
#
#   deploy/local/e2e/real-spark.sh     (run by `deploy/local/lakehouse test` after Maven; LAKEHOUSE_REAL_ENGINES=0 skips it)
#
# Needs PostgreSQL, Kafka and Keycloak running (`lakehouse test` or `lakehouse up --with-keycloak`) and the
# fast-jars of catalog- and engines-service and deploy/local-kit. Leaves a running stack alone (lib/e2e.sh): state in
# $LAKEHOUSE_HOME/e2e-spark, its own local Kubernetes API and service ports, database lakehouse_e2e_spark
# (recreated each run), consumer groups of its own placed at the topics' end. Stops what it started, also on
# failure. Needs about 3 GB of memory and, the first time, ~400 MB of downloads from Maven Central (kept in
# $LAKEHOUSE_HOME/real-engines and ~/.m2).
set -euo pipefail

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
E2E_NAME=spark
E2E_KUBE_PORT="${LAKEHOUSE_E2E_SPARK_KUBE_PORT:-56464}"
E2E_SERVICES="catalog:${LAKEHOUSE_E2E_SPARK_CATALOG_PORT:-18191} engines:${LAKEHOUSE_E2E_SPARK_ENGINES_PORT:-18192}"
# shellcheck source=../lib/e2e.sh
source "${REPO_ROOT}/deploy/local/lib/e2e.sh"
# shellcheck source=../lib/real_engines.sh
source "${REPO_ROOT}/deploy/local/lib/real_engines.sh"

# Its own S3 and REST ports (not real-trino.sh's 19390/18381): the two scripts can run side by side.
S3_PORT="${LAKEHOUSE_E2E_SPARK_S3_PORT:-19391}"
REST_PORT="${LAKEHOUSE_E2E_SPARK_REST_PORT:-18382}"
SPARK_PORT="${LAKEHOUSE_E2E_SPARK_CONNECT_PORT:-18502}"
START_LIMIT_S="${LAKEHOUSE_E2E_SPARK_START_LIMIT_S:-300}"
NS="rs-$(printf '%s' "${RUN_ID}" | sha256sum | cut -c1-8)"
WORK="${LAKEHOUSE_HOME}/work"
LOCAL_KIT_CP="${REPO_ROOT}/deploy/local-kit/target/local-kit-0.1.0-SNAPSHOT.jar:${REPO_ROOT}/deploy/local-kit/target/lib/*"

# start_spark_pod: the generated Deployment's spark-connect container as a process (its TLS sidecar does not run).
start_spark_pod() {
  local root="${WORK}/spark"
  rm -rf "${root}" && mkdir -p "${root}"
  run_bg spark-connect java -cp "${LOCAL_KIT_CP}" io.lakehouse.local.Main pod --api "${KUBE_URL}" --namespace "${NS}" \
    --deployment spark --container spark-connect --root "${root}" --dist "${SPARK_DIST}" --java-home "${SPARK_JAVA}" \
    --url "http://cat.${NS}.svc:8181/api/catalog=http://127.0.0.1:${REST_PORT}" \
    --host "minio.storage.svc:9000=127.0.0.1:${S3_PORT}" \
    --path "/etc/spark/defaults=${root}/defaults" --path "/etc/spark/conf=${root}/conf" --path "/tmp=${root}/tmp" \
    --path "/opt/spark/work-dir=${root}/work" --listen-port "15002=${SPARK_PORT}"
}

# compile_client: SparkConnectSql.java against the JVM client, once per run (it runs twice).
compile_client() {
  rm -rf "${WORK}/client" && mkdir -p "${WORK}/client"
  "${SPARK_JAVA}/bin/javac" -nowarn -cp "${SPARK_CLIENT_LIB}/*" -d "${WORK}/client" \
    "${REPO_ROOT}/deploy/local/e2e/SparkConnectSql.java" || die "SparkConnectSql.java does not compile"
}

# spark_sql TOKEN STATEMENT...: the statements through the Spark Connect JVM client; prints the rows.
spark_sql() {
  local token=$1
  shift
  SPARK_CONNECT_AUTHENTICATE_TOKEN="${token}" "${SPARK_JAVA}/bin/java" -Xmx512m \
    --add-opens=java.base/java.nio=ALL-UNNAMED -cp "${WORK}/client:${SPARK_CLIENT_LIB}/*" SparkConnectSql \
    "sc://localhost:${SPARK_PORT}" "$@" 2>>"${LH_LOG_DIR}/spark-client.log"
}

# tree_rss_mb PID: the resident memory of PID and all its descendants, in MB (the pod's processes).
tree_rss_mb() {
  ps -e -o pid=,ppid=,rss= | awk -v root="$1" '
    { parent[$1] = $2; rss[$1] = $3 }
    END { for (p in parent) { q = p; while (q != "" && q != root && q in parent && q != 1) q = parent[q]; if (q == root) sum += rss[p] }
          printf "%d\n", sum / 1024 }'
}

main() {
  local t0 rows objects token pod
  t0=$(now_ms)
  SPARK_JAVA=$(real_engines_spark_java) || die "Spark ${SPARK_VERSION} needs a JDK 17 or 21 (set LAKEHOUSE_SPARK_JAVA_HOME)"
  real_engines_fetch_spark
  real_stack_up
  start_stand_ins
  e2e_log "stack and stand-ins ready after $(elapsed_since "${t0}")"
  write_bucket_secret
  ALICE=$(e2e_token alice)
  local catalog="http://127.0.0.1:$(svc_port "$(cut -d' ' -f1 <<<"${SERVICES}")")/api/v1/namespaces/${NS}"
  local engines="http://127.0.0.1:$(svc_port "$(cut -d' ' -f2 <<<"${SERVICES}")")/api/v1/namespaces/${NS}"
  api POST "${catalog}/instances/iceberg-catalog" '{"name": "cat", "spec": {"storage": {"bucket": "warehouse",
    "endpoint": "http://minio.storage.svc:9000", "region": "us-east-1", "credentialsSecret": "warehouse-bucket"}}}' >/dev/null
  await_phase "${catalog}/instances/iceberg-catalog/cat" Ready 120
  api POST "${engines}/instances/spark-connect" '{"name": "spark", "spec": {"catalog": "cat"}}' >/dev/null
  await_phase "${engines}/instances/spark-connect/spark" Ready 120
  e2e_log "catalog and spark-connect Ready through the APIs after $(elapsed_since "${t0}")"

  start_spark_pod
  pod=${LAST_PID}
  compile_client
  wait_for_line "${LH_LOG_DIR}/spark-connect.log" "Spark Connect server started" "${START_LIMIT_S}" "${pod}" ||
    die "the generated Spark Connect server did not start: $(grep -m5 -E 'ERROR|Error|Exception' "${LH_LOG_DIR}/spark-connect.log" || true)"
  e2e_log "real Spark Connect server started from the generated objects after $(elapsed_since "${t0}")"

  # The token clients of the namespace are given: key token of the instance's -platform Secret.
  token=$(curl -s --max-time 10 "${KUBE_URL}/api/v1/namespaces/${NS}/secrets/spark-platform" |
    python3 -c 'import base64,json,sys; print(base64.b64decode(json.load(sys.stdin)["data"]["token"]).decode())') ||
    die "no token in spark-platform"
  rows=$(spark_sql "${token}" \
    "CREATE NAMESPACE IF NOT EXISTS lakehouse.demo" \
    "CREATE TABLE lakehouse.demo.t (x INT) USING iceberg" \
    "INSERT INTO lakehouse.demo.t VALUES (1), (2)" \
    "SELECT * FROM lakehouse.demo.t ORDER BY x") || die "the seed's SQL failed through Spark Connect: ${rows}"
  [[ ${rows} == *$'SELECT * FROM lakehouse.demo.t ORDER BY x\n[1]\n[2]'* ]] || die "SELECT * FROM lakehouse.demo.t gave ${rows}"
  e2e_log "the seed's SQL ran through Spark Connect: $(tail -2 <<<"${rows}" | tr '\n' ' ')after $(elapsed_since "${t0}") (server's processes: $(tree_rss_mb "${pod}") MB resident)"
  if rows=$(spark_sql "not-the-token" "SELECT 1"); then
    die "a client with a wrong token ran SQL: ${rows}"
  fi
  [[ ${rows} == *UNAUTHENTICATED* || ${rows} == *"authentication token"* ]] ||
    die "a wrong token was refused, but not by the server's authentication: ${rows}"
  e2e_log "refused with a wrong token: ${rows##*ERROR: }"

  objects=$(bucket_keys demo/)
  grep -qE '^demo/t[^/]*/data/.*\.parquet$' <<<"${objects}" || die "no Parquet file under demo/t/data: ${objects}"
  grep -qE '^demo/t[^/]*/metadata/.*\.metadata\.json$' <<<"${objects}" || die "no Iceberg metadata under demo/t/metadata: ${objects}"
  e2e_log "bucket: $(wc -l <<<"${objects}") objects under demo/t/ (Parquet data and Iceberg metadata)"
  # A fresh token: on a loaded machine the run outlasts the first one (Keycloak's 5-minute access tokens).
  ALICE=$(e2e_token alice)
  api DELETE "${engines}/instances/spark-connect/spark" >/dev/null
  await_gone "${engines}/instances/spark-connect/spark" 60
  api DELETE "${catalog}/instances/iceberg-catalog/cat" >/dev/null
  e2e_log "passed in $(elapsed_since "${t0}")"
}

main "$@"
