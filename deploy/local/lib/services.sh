# shellcheck shell=bash disable=SC2034 # variables shared with the other files of lib/
# The Quarkus services of the control plane, each from its fast-jar
# (<name>-service/target/quarkus-app/quarkus-run.jar), wired to the local
# PostgreSQL, Kafka, Kubernetes API and token keys.
#
# One word per service, name:port. The module is <name>-service, its database
# role and schema are <name> (password <name>, local default).
SERVICES="${LAKEHOUSE_SERVICES:-catalog:8081 engines:8082 notebooks:8083 sparkjobs:8084 access:8085}"
# shellcheck source=cds.sh
source "${BASH_SOURCE[0]%/*}/cds.sh"

SERVICES_READY_TIMEOUT="${LAKEHOUSE_SERVICE_READY_TIMEOUT:-90}"
# JVM options of every service (docs/benchmarks.md "JVM settings, P1 and P11"): the serial collector (one
# core's worth of work, no G1 remembered sets); a heap that starts at 64 MiB with a fixed 24 MiB young
# generation (the eden is what every request allocates into, so it is resident anyway; a bigger one only
# spaces out the same short pauses) and the JVM's own free ratios 40/70, so that the old generation keeps
# room (with -Xms16m and ratios 10/30 every service ran 14-17 full collections in a short benchmark, one to
# three of them while P1 read); a metaspace threshold above the ~90 MiB of classes a service loads (the
# JVM's ~21 MiB cost full collections at start); a bounded code cache and smaller thread stacks; glibc's
# free native memory handed back every 5 s (-XX:TrimNativeHeapInterval: the C2 compiler's arenas and the
# start leave ~25 MiB freed but resident); the C1 compiler only (-XX:TieredStopAtLevel=1, docs/benchmarks.md
# "The JIT: C1 only"): C2's compilations of the reconcile and boot paths cost more CPU than the code they
# speed up (about half of a catalog's first 500); reconcile threads (Java's MIN_PRIORITY) at nice 10 and every
# other thread at 0, as root or not (docs/benchmarks.md "Reconcile work below the API": the API answers first
# under a burst); -Xmx stays the ceiling the benchmarks need. The images
# (Dockerfile.jvm) and the chart (javaOpts) run the same (chart-check's JvmSettingsTest).
# LAKEHOUSE_JAVA_OPTS replaces them, e.g. to measure another setting, or -Xmx512m for ten thousand catalogs
# (the 256 MiB heap holds 9,920, but its cold restart runs at the heap's edge: docs/install.md "Sizing").
SERVICES_JAVA_OPTS="${LAKEHOUSE_JAVA_OPTS:--XX:+UseSerialGC -Xms64m -Xmn24m -Xmx256m -XX:MinHeapFreeRatio=40 -XX:MaxHeapFreeRatio=70 -XX:MetaspaceSize=128m -XX:ReservedCodeCacheSize=64m -Xss512k -XX:TrimNativeHeapInterval=5000 -XX:+ExitOnOutOfMemoryError -XX:TieredStopAtLevel=1 -XX:ThreadPriorityPolicy=1 -XX:JavaPriority1_To_OSPriority=10 -XX:JavaPriority6_To_OSPriority=0 -XX:JavaPriority7_To_OSPriority=0 -XX:JavaPriority8_To_OSPriority=0 -XX:JavaPriority9_To_OSPriority=0 -XX:JavaPriority10_To_OSPriority=0}"
# glibc's default of 8 malloc arenas per core keeps freed native memory of many threads resident.
SERVICES_MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
SECRETS_KEY_FILE="${LAKEHOUSE_HOME}/secrets.key"
CLUSTER_DOMAIN=lakehouse.localtest.me

svc_name() { printf '%s\n' "${1%%:*}"; }
svc_port() { printf '%s\n' "${1##*:}"; }
# /q/health and /q/metrics: the Quarkus management interface, on the API port + 1000.
svc_mgmt_port() { printf '%s\n' "$(($(svc_port "$1") + 1000))"; }
svc_module() { printf '%s-service\n' "$(svc_name "$1")"; }
svc_jar() { printf '%s/%s/target/quarkus-app/quarkus-run.jar\n' "${REPO_ROOT}" "$(svc_module "$1")"; }
svc_log() { printf '%s/%s.log\n' "${LH_LOG_DIR}" "$(svc_name "$1")"; }

# A base64 32-byte key, generated once; encrypts the secrets services store. Services start in parallel
# (the e2e checks): each candidate key is written whole to a file of its own and hard-linked into place,
# which fails when the key exists, so the first writer wins and every service reads the same key.
secrets_key() {
  local candidate
  if [[ ! -e ${SECRETS_KEY_FILE} ]]; then
    mkdir -p "${SECRETS_KEY_FILE%/*}"
    candidate=$(mktemp "${SECRETS_KEY_FILE}.XXXXXX") # mode 600
    head -c 32 /dev/urandom | base64 >"${candidate}"
    ln "${candidate}" "${SECRETS_KEY_FILE}" 2>/dev/null || true
    rm -f "${candidate}"
  fi
  [[ -s ${SECRETS_KEY_FILE} ]] || die "${SECRETS_KEY_FILE} is empty: delete it to have a new key generated"
  tr -d '[:space:]' <"${SECRETS_KEY_FILE}"
}

# The services that can run now; prints a message for each module still being written.
svc_runnable() {
  local s
  for s in ${SERVICES}; do
    if module_ready "$(svc_module "${s}")"; then
      printf '%s\n' "${s}"
    else
      warn "$(svc_module "${s}") has no pom.xml or src/main yet: not started"
    fi
  done
}

# Builds the services whose fast-jar is missing or older than their sources; with LAKEHOUSE_NO_BUILD=1 only the
# missing ones (a benchmark restarting a service mid-run restarts the code it measures, whatever was edited since).
svc_build_missing() {
  local s missing=()
  for s in "$@"; do
    if [[ ${LAKEHOUSE_NO_BUILD:-0} == 1 ]]; then
      [[ -f $(svc_jar "${s}") ]] || missing+=("$(svc_module "${s}")")
    else
      up_to_date "$(svc_jar "${s}")" "$(svc_module "${s}")" common || missing+=("$(svc_module "${s}")")
    fi
  done
  ((${#missing[@]} == 0)) && return 0
  build_modules "${missing[@]}"
  for s in "$@"; do
    [[ ! -f $(svc_jar "${s}") ]] || touch "$(svc_jar "${s}")" # see ensure_local_kit
  done
}

svc_http_code() { curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$1" 2>/dev/null || true; }

svc_wait_ready() {
  local s=$1 pid=$2 url deadline=$((SECONDS + SERVICES_READY_TIMEOUT))
  url="http://127.0.0.1:$(svc_mgmt_port "${s}")/q/health/ready"
  while ((SECONDS < deadline)); do
    [[ $(svc_http_code "${url}") == 200 ]] && return 0
    proc_running "${pid}" || return 2
    sleep 0.5
  done
  return 1
}

# Token validation: Keycloak's realm in Keycloak mode (`up --with-keycloak`: discovery + JWKS, the
# issuer from discovery, as in production; access-service also creates the instances' OIDC clients
# there), else the local token issuer's public key and issuer. Either way the services require the
# audience lakehouse-api (their application.properties). Each service's mode is kept in
# run/<service>.token-mode; `up` restarts a running service started in the other mode (svc_stop_other_mode), since
# `token` then hands out the tokens of the new mode.
svc_export_oidc() {
  if [[ $(token_mode) == keycloak ]]; then
    export QUARKUS_OIDC_AUTH_SERVER_URL="${KEYCLOAK_ISSUER}" \
      LAKEHOUSE_KEYCLOAK_URL="${KEYCLOAK_URL}" \
      LAKEHOUSE_KEYCLOAK_REALM="${KEYCLOAK_REALM}" \
      LAKEHOUSE_KEYCLOAK_CLIENT_ID="${KEYCLOAK_ADMIN_CLIENT}" \
      LAKEHOUSE_KEYCLOAK_CLIENT_SECRET="${KEYCLOAK_ADMIN_SECRET}" \
      LAKEHOUSE_CLUSTER_OIDC_ISSUER="${KEYCLOAK_ISSUER}"
  else
    export QUARKUS_OIDC_PUBLIC_KEY
    QUARKUS_OIDC_PUBLIC_KEY=$(tr -d '[:space:]' <"${KEYS_PUBLIC_B64}")
    export QUARKUS_OIDC_TOKEN_ISSUER="${LH_ISSUER}"
  fi
}

# svc_launch SERVICE CDS_OPTIONS: starts the service's jar and waits until it is ready (dies if it is not).
svc_launch() {
  local s=$1 cds=$2 name port jar pid rc=0 pg_host pg_port key
  name=$(svc_name "${s}")
  port=$(svc_port "${s}")
  jar=$(svc_jar "${s}")
  pg_host=$(pg_service_host)
  pg_port=$(pg_service_port)
  key=$(secrets_key)
  pid=$(
    cd "${REPO_ROOT}" || exit 1
    svc_export_oidc
    # KUBERNETES_AUTH_TOKEN: the local API checks no token, but without one fabric8 re-reads its whole
    # configuration (environment, files) before every request once a minute has passed since its start.
    # KUBERNETES_USER_AGENT: the local API counts requests by agent, so the benchmarks count each service's own.
    export QUARKUS_HTTP_PORT="${port}" \
      QUARKUS_MANAGEMENT_PORT="$(svc_mgmt_port "${s}")" \
      KUBERNETES_MASTER="${KUBE_URL}" \
      KUBERNETES_TRUST_CERTIFICATES=true \
      KUBERNETES_AUTH_TRYKUBECONFIG=false \
      KUBERNETES_AUTH_TOKEN=local-stack \
      KUBERNETES_NAMESPACE=default \
      KUBERNETES_USER_AGENT="$(svc_module "${s}")" \
      QUARKUS_DATASOURCE_USERNAME="${name}" \
      QUARKUS_DATASOURCE_PASSWORD="${name}" \
      QUARKUS_DATASOURCE_REACTIVE_URL="postgresql://${pg_host}:${pg_port}/${PG_DB}" \
      QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://${pg_host}:${pg_port}/${PG_DB}" \
      KAFKA_BOOTSTRAP_SERVERS="${KAFKA_BOOTSTRAP}" \
      LAKEHOUSE_SECRETS_KEY="${key}" \
      LAKEHOUSE_CLUSTER_DOMAIN="${CLUSTER_DOMAIN}" \
      MALLOC_ARENA_MAX="${SERVICES_MALLOC_ARENA_MAX}"
    # shellcheck disable=SC2086 # one option per word
    start_bg "${name}" "$(svc_log "${s}")" java ${SERVICES_JAVA_OPTS} ${cds} -jar "${jar}"
  )
  svc_wait_ready "${s}" "${pid}" || rc=$?
  ((rc != 0)) || token_mode >"$(svc_mode_file "${s}")"
  if ((rc != 0)); then
    show_log_tail "$(svc_log "${s}")" 60
    ((rc == 2)) && die "${name} exited during start-up"
    stop_named "${name}" "${jar}"
    die "${name} was not ready on :$(svc_mgmt_port "${s}")/q/health/ready within ${SERVICES_READY_TIMEOUT}s"
  fi
}

# cds_needs_training CDS_OPTIONS: the options dump an archive at exit and LAKEHOUSE_CDS_TRAIN is on.
cds_needs_training() { [[ $1 == -XX:ArchiveClassesAtExit=* && ${SERVICES_CDS_TRAIN} == 1 ]]; }

# svc_train SERVICE CDS_OPTIONS: the first start of a new jar runs it once to ready and stops it, so that its
# class-data archive is written before the start that stays (one that writes it at exit holds 20-30 MiB more
# while it runs: P11 would measure that).
svc_train() {
  local s=$1 cds=$2 t0
  t0=$(now_ms)
  svc_launch "${s}" "${cds}"
  LH_STOP_TIMEOUT=${SERVICES_CDS_STOP_TIMEOUT} stop_named "$(svc_name "${s}")" "$(svc_jar "${s}")"
  log "$(svc_name "${s}"): class-data archive written ($(elapsed_since "${t0}"))"
}

# svc_train_all SERVICE...: trains the services that are not running and have no archive, all at once (one
# after the other, the five first starts after a build took ~100 s of `up`).
svc_train_all() {
  local s pids=() rc=0
  for s in "$@"; do
    running_pid "$(svc_name "${s}")" "$(svc_jar "${s}")" >/dev/null && continue
    port_open 127.0.0.1 "$(svc_port "${s}")" && continue # svc_start says whose port it is
    (
      # shellcheck disable=SC2086 # one option per word
      cds=$(cds_options "${s}" ${SERVICES_JAVA_OPTS})
      if cds_needs_training "${cds}"; then svc_train "${s}" "${cds}"; fi
    ) &
    pids+=($!)
  done
  for s in ${pids[@]+"${pids[@]}"}; do wait "${s}" || rc=1; done
  ((rc == 0)) || die "a service's first start (to write its class-data archive) failed (logs in ${LH_LOG_DIR})"
}

svc_mode_file() { printf '%s/%s.token-mode\n' "${LH_RUN_DIR}" "$(svc_name "$1")"; }

# svc_stop_other_mode SERVICE...: stops, all at once, the running SERVICEs that accept the other mode's tokens
# (no mode file: started in the default, local mode), so that svc_start starts them again in this one.
svc_stop_other_mode() {
  local s name mode started stops=()
  mode=$(token_mode)
  for s in "$@"; do
    name=$(svc_name "${s}")
    running_pid "${name}" "$(svc_jar "${s}")" >/dev/null || continue
    started=$(cat "$(svc_mode_file "${s}")" 2>/dev/null || printf 'local')
    [[ ${started} == "${mode}" ]] && continue
    log "${name}: running with ${started} tokens; restarting it to accept ${mode} tokens"
    stop_named "${name}" "$(svc_jar "${s}")" &
    stops+=("$!")
  done
  ((${#stops[@]} == 0)) || wait "${stops[@]}"
}

svc_start() {
  local s=$1 name port jar t0 cds
  t0=$(now_ms)
  name=$(svc_name "${s}")
  port=$(svc_port "${s}")
  jar=$(svc_jar "${s}")
  if running_pid "${name}" "${jar}" >/dev/null; then
    log "${name}: already running on :${port} (reused)"
    return 0
  fi
  port_open 127.0.0.1 "${port}" && die "port ${port} (${name}) is taken by a process this stack did not start"
  # shellcheck disable=SC2086 # one option per word
  cds=$(cds_options "${s}" ${SERVICES_JAVA_OPTS})
  if cds_needs_training "${cds}"; then
    svc_train "${s}" "${cds}"
    # shellcheck disable=SC2086 # one option per word
    cds=$(cds_options "${s}" ${SERVICES_JAVA_OPTS})
  fi
  svc_launch "${s}" "${cds}"
  LH_STARTED+=("${name}")
  log "${name}: ready on http://127.0.0.1:${port} ($(elapsed_since "${t0}"))"
}

services_up() {
  local runnable s
  if [[ ${LAKEHOUSE_SKIP_SERVICES:-} == 1 ]]; then
    log "services: skipped (LAKEHOUSE_SKIP_SERVICES=1)"
    return 0
  fi
  mapfile -t runnable < <(svc_runnable)
  ((${#runnable[@]} > 0)) || return 0
  svc_build_missing "${runnable[@]}"
  svc_stop_other_mode "${runnable[@]}"
  svc_train_all "${runnable[@]}"
  for s in "${runnable[@]}"; do svc_start "${s}"; done
}

# All at once: a service takes seconds to stop (SmallRye's graceful Kafka shutdown pauses each channel and waits
# ~3 s, one channel after the other: engines-service 13-15 s), and no service needs another to stop.
services_down() {
  local s timeout stops=()
  for s in ${SERVICES}; do
    timeout=${LH_STOP_TIMEOUT}
    if cds_dumping "${s}"; then timeout=${SERVICES_CDS_STOP_TIMEOUT}; fi
    (LH_STOP_TIMEOUT=${timeout} stop_named "$(svc_name "${s}")" "$(svc_jar "${s}")") &
    stops+=("$!")
  done
  ((${#stops[@]} == 0)) || wait "${stops[@]}"
}

services_status() {
  local s pid
  for s in ${SERVICES}; do
    if pid=$(running_pid "$(svc_name "${s}")" "$(svc_jar "${s}")"); then
      status_line "$(svc_name "${s}")" running "${pid}" "http://127.0.0.1:$(svc_port "${s}")"
    else
      status_line "$(svc_name "${s}")" "$(stopped_state 127.0.0.1 "$(svc_port "${s}")")" "" "http://127.0.0.1:$(svc_port "${s}")"
    fi
  done
}

services_urls() {
  local s
  for s in ${SERVICES}; do
    if running_pid "$(svc_name "${s}")" "$(svc_jar "${s}")" >/dev/null; then
      printf '  %-22s http://127.0.0.1:%s   (OpenAPI: http://127.0.0.1:%s/q/openapi)\n' \
        "$(svc_module "${s}")" "$(svc_port "${s}")" "$(svc_port "${s}")"
    fi
  done
}
