#!/usr/bin/env bash
# shellcheck shell=bash
# The real-engines test bed (sourced): what runs the services' generated objects for real on this
# machine, all from Maven Central (deploy/real-engines/pom.xml), cached in ${LAKEHOUSE_HOME}/real-engines:
#   - Trino's server tarball (io.trino:trino-server; the images use a newer version: TRINO_VERSION),
#   - the Iceberg reference REST catalog server (iceberg-open-api test fixtures), standing in for
#     Polaris, which publishes no server artifact,
#   - S3Mock (com.adobe.testing:s3mock, exec jar) as the bucket's S3 store.
# Trino needs a JDK of at least 24 (the machine's Temurin); the tarball lacks the image's jvmkill agent,
# so a no-op agent is built (gcc) at the path the generated jvm.config names.

RE_DIR="${LAKEHOUSE_HOME}/real-engines"
TRINO_VERSION="${LAKEHOUSE_TRINO_VERSION:-476}"
S3MOCK_VERSION="${LAKEHOUSE_S3MOCK_VERSION:-4.11.0}"
TRINO_DIST="${RE_DIR}/trino-server-${TRINO_VERSION}"
S3MOCK_JAR="${RE_DIR}/s3mock-${S3MOCK_VERSION}-exec.jar"
REST_LIB="${RE_DIR}/rest-lib"
RE_POM="${REPO_ROOT}/deploy/real-engines/pom.xml"

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

# real_engines_fetch: everything above, once (a few minutes and ~1 GB the first time).
real_engines_fetch() {
  local t0 java_home
  t0=$(now_ms)
  mkdir -p "${RE_DIR}"
  java_home=$(real_engines_java) || die "Trino ${TRINO_VERSION} needs a JDK >= 24 (set LAKEHOUSE_TRINO_JAVA_HOME)"
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
  log "real engines ready in ${RE_DIR} ($(elapsed_since "${t0}"))"
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
