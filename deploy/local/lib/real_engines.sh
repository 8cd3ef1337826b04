#!/usr/bin/env bash
# shellcheck shell=bash
# The real-engines test bed (sourced): what runs the services' generated objects for real on this
# machine, all from Maven Central (deploy/real-engines/pom.xml), cached in ${LAKEHOUSE_HOME}/real-engines:
#   - Trino's server tarball (io.trino:trino-server; the images use a newer version: TRINO_VERSION),
#   - the Iceberg reference REST catalog server (iceberg-open-api test fixtures), standing in for
#     Polaris, which publishes no server artifact,
#   - S3Mock (com.adobe.testing:s3mock, exec jar) as the bucket's S3 store,
#   - Spark 4.0's jars (spark-connect_2.13 and what it needs: deploy/real-engines/spark-server/pom.xml) laid out as a
#     distribution's jars/, with stand-ins for its bin/ scripts (deploy/real-engines/spark-bin), and the Iceberg
#     runtime and AWS bundle in jars/ too, as in the default image (deploy/images/spark-iceberg); the Spark
#     Connect JVM client (deploy/real-engines/spark-client/pom.xml).
# Trino needs a JDK of at least 24 (the machine's Temurin); the tarball lacks the image's jvmkill agent,
# so a no-op agent is built (gcc) at the path the generated jvm.config names. Spark 4.0 runs on Java 17 or 21.

# The e2e checks run with a LAKEHOUSE_HOME of their own: the downloads are the outer home's (OUTER_HOME), fetched once.
RE_DIR="${OUTER_HOME:-${LAKEHOUSE_HOME}}/real-engines"
TRINO_VERSION="${LAKEHOUSE_TRINO_VERSION:-476}"
S3MOCK_VERSION="${LAKEHOUSE_S3MOCK_VERSION:-4.11.0}"
TRINO_DIST="${RE_DIR}/trino-server-${TRINO_VERSION}"
S3MOCK_JAR="${RE_DIR}/s3mock-${S3MOCK_VERSION}-exec.jar"
REST_LIB="${RE_DIR}/rest-lib"
RE_POM="${REPO_ROOT}/deploy/real-engines/pom.xml"
SPARK_VERSION=4.0.1
# With the Iceberg runtime and AWS bundle in jars/, as in engines-service's default image (deploy/images/spark-iceberg).
SPARK_DIST="${RE_DIR}/spark-${SPARK_VERSION}-iceberg"
SPARK_CLIENT_LIB="${RE_DIR}/spark-client-lib"

# real_engines_java: a JDK that runs Trino (>= 24), from LAKEHOUSE_TRINO_JAVA_HOME or /usr/lib/jvm.
real_engines_java() {
  local home
  for home in ${LAKEHOUSE_TRINO_JAVA_HOME:-} /usr/lib/jvm/temurin-25-jdk-* /usr/lib/jvm/*-25-* /usr/lib/jvm/temurin-24-jdk-*; do
    if [[ -x ${home}/bin/java ]]; then
      printf '%s\n' "${home}"
      return 0
    fi
  done
  return 1
}

# real_engines_fetch: the stand-ins (REST catalog server, S3Mock), once.
real_engines_fetch() {
  mkdir -p "${RE_DIR}"
  if [[ ! -d ${REST_LIB} ]]; then
    log "fetching the Iceberg REST catalog server's classpath from Maven Central"
    mvnw -q -B -f "${RE_POM}" dependency:copy-dependencies -DoutputDirectory="${REST_LIB}.tmp" ||
      die "could not fetch the Iceberg REST server"
    mv "${REST_LIB}.tmp" "${REST_LIB}"
  fi
  if [[ ! -f ${S3MOCK_JAR} ]]; then
    log "fetching S3Mock ${S3MOCK_VERSION} from Maven Central"
    mvnw -q -B -f "${RE_POM}" dependency:copy -Dartifact="com.adobe.testing:s3mock:${S3MOCK_VERSION}:jar:exec" \
      -DoutputDirectory="${RE_DIR}" || die "could not fetch S3Mock"
  fi
}

# real_engines_fetch_trino: the stand-ins and Trino, once (a few minutes and ~1 GB the first time).
real_engines_fetch_trino() {
  local t0 java_home
  t0=$(now_ms)
  java_home=$(real_engines_java) || die "Trino ${TRINO_VERSION} needs a JDK >= 24 (set LAKEHOUSE_TRINO_JAVA_HOME)"
  real_engines_fetch
  if [[ ! -x ${TRINO_DIST}/bin/launcher ]]; then
    log "fetching Trino ${TRINO_VERSION} (server tarball, ~800 MB) from Maven Central"
    mvnw -q -B -f "${RE_POM}" dependency:copy -Dartifact="io.trino:trino-server:${TRINO_VERSION}:tar.gz" \
      -DoutputDirectory="${RE_DIR}" || die "could not fetch Trino"
    rm -rf "${TRINO_DIST}.tmp" && mkdir -p "${TRINO_DIST}.tmp"
    tar -xzf "${RE_DIR}/trino-server-${TRINO_VERSION}.tar.gz" -C "${TRINO_DIST}.tmp" --strip-components=1 ||
      die "could not unpack Trino"
    rm -f "${RE_DIR}/trino-server-${TRINO_VERSION}.tar.gz"
    mv "${TRINO_DIST}.tmp" "${TRINO_DIST}"
  fi
  if [[ ! -f ${TRINO_DIST}/bin/libjvmkill.so ]]; then
    command -v gcc >/dev/null || die "gcc is needed to build the stand-in for Trino's jvmkill agent"
    gcc -shared -fPIC -I"${java_home}/include" -I"${java_home}/include/linux" \
      -o "${TRINO_DIST}/bin/libjvmkill.so" "${REPO_ROOT}/deploy/real-engines/noop-agent.c" ||
      die "could not build the no-op JVM agent"
  fi
  log "real engines (Trino) ready in ${RE_DIR} ($(elapsed_since "${t0}"))"
}

# real_engines_spark_java: a JDK that runs Spark 4.0 (17 or 21), from LAKEHOUSE_SPARK_JAVA_HOME or /usr/lib/jvm.
real_engines_spark_java() {
  local home
  for home in ${LAKEHOUSE_SPARK_JAVA_HOME:-} /usr/lib/jvm/temurin-21-jdk-* /usr/lib/jvm/java-21-openjdk-* \
    /usr/lib/jvm/temurin-17-jdk-* /usr/lib/jvm/java-17-openjdk-*; do
    if [[ -x ${home}/bin/java ]]; then
      printf '%s\n' "${home}"
      return 0
    fi
  done
  return 1
}

# real_engines_fetch_spark: the stand-ins, Spark's jars and client, once (~400 MB the first time).
real_engines_fetch_spark() {
  local t0
  t0=$(now_ms)
  real_engines_fetch
  if [[ ! -d ${SPARK_DIST}/jars ]]; then
    log "fetching Spark ${SPARK_VERSION}'s jars (spark-connect and its dependencies) from Maven Central"
    rm -rf "${SPARK_DIST}.tmp"
    mvnw -q -B -f "${REPO_ROOT}/deploy/real-engines/spark-server/pom.xml" -Piceberg dependency:copy-dependencies \
      -DoutputDirectory="${SPARK_DIST}.tmp/jars" || die "could not fetch Spark's and Iceberg's jars"
    mkdir -p "${SPARK_DIST}.tmp/bin"
    mv "${SPARK_DIST}.tmp" "${SPARK_DIST}"
  fi
  # The bin/ stand-ins are the repository's, copied each time (they are small and may change).
  cp "${REPO_ROOT}/deploy/real-engines/spark-bin/"* "${SPARK_DIST}/bin/"
  if [[ ! -d ${SPARK_CLIENT_LIB} ]]; then
    log "fetching the Spark Connect JVM client from Maven Central"
    mvnw -q -B -f "${REPO_ROOT}/deploy/real-engines/spark-client/pom.xml" dependency:copy-dependencies \
      -DoutputDirectory="${SPARK_CLIENT_LIB}.tmp" || die "could not fetch the Spark Connect client"
    mv "${SPARK_CLIENT_LIB}.tmp" "${SPARK_CLIENT_LIB}"
  fi
  log "real engines (Spark) ready in ${RE_DIR} ($(elapsed_since "${t0}"))"
}

# wait_for_line FILE PATTERN SECONDS PID: true once FILE has a line matching PATTERN; false when
# PID exits first or SECONDS pass.
wait_for_line() {
  local file=$1 pattern=$2 limit=$3 pid=$4 i
  for ((i = 0; i < limit * 5; i++)); do
    grep -q -- "${pattern}" "${file}" 2>/dev/null && return 0
    kill -0 "${pid}" 2>/dev/null || return 1
    sleep 0.2
  done
  return 1
}

# --- What the real-engine checks (deploy/local/e2e/real-*.sh) share; they source lib/e2e.sh first (RUN_ID, PG_DB,
# SERVICES, OUTER_HOME, the stack) and set, before calling these: NS (their namespace), WORK (their work folder),
# S3_PORT and REST_PORT.
PIDS=()

# e2e_stop_extra (called by lib/e2e.sh's e2e_stop_all): the processes run_bg started.
e2e_stop_extra() {
  local pid
  for pid in "${PIDS[@]}"; do kill "${pid}" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "${pid}" 2>/dev/null || true; done
}

# api METHOD URL [BODY]: as alice (ALICE: her token); prints the body; fails on a status >= 400.
api() {
  local method=$1 url=$2 body=${3:-} out code
  out=$(mktemp)
  code=$(curl -s -o "${out}" -w '%{http_code}' --max-time 20 -X "${method}" -H "Authorization: Bearer ${ALICE}" \
    -H 'Content-Type: application/json' ${body:+-d "${body}"} "${url}") || code=000
  if ((code >= 400 || code == 0)); then
    e2e_log "FAIL ${method} ${url}: HTTP ${code} $(cat "${out}")"
    rm -f "${out}"
    return 1
  fi
  cat "${out}"
  rm -f "${out}"
}

# await_phase URL PHASE SECONDS
await_phase() {
  local url=$1 want=$2 limit=$3 i phase=
  for ((i = 0; i < limit * 2; i++)); do
    phase=$(api GET "${url}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"]["phase"])') || true
    [[ ${phase} == "${want}" ]] && return 0
    sleep 0.5
  done
  die "${url} is ${phase:-unknown}, not ${want}, after ${limit} s"
}

# await_gone URL SECONDS: until GET answers 404.
await_gone() {
  local i
  for ((i = 0; i < $2 * 2; i++)); do
    [[ $(curl -s -o /dev/null -w '%{http_code}' --max-time 5 -H "Authorization: Bearer ${ALICE}" "$1") == 404 ]] && return 0
    sleep 0.5
  done
  die "$1 still exists after $2 s"
}

# run_bg NAME COMMAND...: runs in the background, output in ${LH_LOG_DIR}/NAME.log; sets LAST_PID.
run_bg() {
  local name=$1
  shift
  "$@" >"${LH_LOG_DIR}/${name}.log" 2>&1 &
  LAST_PID=$!
  PIDS+=("${LAST_PID}")
}

# real_stack_up: lib/e2e.sh's stack (Keycloak tokens) once deploy/local-kit, which runs the pods, is built.
real_stack_up() {
  [[ -f ${REPO_ROOT}/deploy/local-kit/target/local-kit-0.1.0-SNAPSHOT.jar ]] || die "deploy/local-kit is not built"
  mkdir -p "${WORK}"
  e2e_stack_up keycloak
}

# start_stand_ins: S3Mock with the bucket "warehouse" (files in ${WORK}/s3) and the Iceberg REST server for Polaris.
start_stand_ins() {
  rm -rf "${WORK}/s3" && mkdir -p "${WORK}/s3"
  COM_ADOBE_TESTING_S3MOCK_STORE_INITIAL_BUCKETS=warehouse COM_ADOBE_TESTING_S3MOCK_STORE_ROOT="${WORK}/s3" \
    run_bg s3mock java -Xmx256m -jar "${S3MOCK_JAR}" --server.port=0 \
    --server.address=127.0.0.1 --com.adobe.testing.s3mock.httpPort="${S3_PORT}"
  wait_for_line "${LH_LOG_DIR}/s3mock.log" "Started S3MockApplication" 120 "${LAST_PID}" ||
    die "S3Mock did not start (${LH_LOG_DIR}/s3mock.log)"
  # The REST catalog keeps its metadata in the bucket, like Polaris; its own table store is in memory.
  CATALOG_REST_PORT="${REST_PORT}" CATALOG_WAREHOUSE=s3://warehouse/ \
    CATALOG_IO__IMPL=org.apache.iceberg.aws.s3.S3FileIO CATALOG_S3_ENDPOINT="http://127.0.0.1:${S3_PORT}" \
    CATALOG_S3_PATH__STYLE__ACCESS=true AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=demo-access-key \
    AWS_SECRET_ACCESS_KEY=demo-secret-key \
    run_bg iceberg-rest java -Xmx384m -cp "${REST_LIB}/*" org.apache.iceberg.rest.RESTCatalogServer
  wait_for_line "${LH_LOG_DIR}/iceberg-rest.log" "Started ServerConnector" 60 "${LAST_PID}" ||
    die "the Iceberg REST server did not start (${LH_LOG_DIR}/iceberg-rest.log)"
}

# write_bucket_secret: the namespace's bucket Secret warehouse-bucket, as the platform writes it (the simulator seeds
# only "demo"), with the keys S3Mock accepts.
write_bucket_secret() {
  local secret code format
  format='{"apiVersion":"v1","kind":"Secret","metadata":{"name":"warehouse-bucket","namespace":"%s",'
  format+='"labels":{"lakehouse.io/bucket":"true"}},"data":{"AWS_ACCESS_KEY_ID":"%s","AWS_SECRET_ACCESS_KEY":"%s"}}'
  # shellcheck disable=SC2059 # the format is the constant above
  secret=$(printf "${format}" "${NS}" "$(printf demo-access-key | base64)" "$(printf demo-secret-key | base64)")
  code=$(curl -s -o "${WORK}/secret.json" -w '%{http_code}' --max-time 10 -X POST -H 'Content-Type: application/json' \
    "${KUBE_URL}/api/v1/namespaces/${NS}/secrets" -d "${secret}") || code=000
  [[ ${code} == 201 ]] || die "could not write the bucket Secret: HTTP ${code} $(cat "${WORK}/secret.json")"
}

# bucket_keys PREFIX: the object keys under PREFIX in the bucket, one a line.
bucket_keys() {
  curl -s --max-time 10 "http://127.0.0.1:${S3_PORT}/warehouse?list-type=2&prefix=$1" |
    grep -o '<Key>[^<]*</Key>' | sed 's/<[^>]*>//g'
}
