# shellcheck shell=bash disable=SC2034 # variables shared with the other files of lib/
# Keycloak for the local stack and the tests: the real OIDC provider, from
# org.keycloak:keycloak-quarkus-dist (Maven Central), started in dev mode
# (embedded H2) on 127.0.0.1:58180 with realm `lakehouse` imported from
# deploy/local/keycloak/lakehouse-realm.json. The unzipped distribution lives in
# $LAKEHOUSE_HOME/keycloak/keycloak-<ver> and is kept between runs (its first
# start does a one-time build of ~20 s); `down --purge` only deletes its data.

KEYCLOAK_VERSION="${LAKEHOUSE_KEYCLOAK_VERSION:-26.5.6}"
KEYCLOAK_HOST=127.0.0.1
KEYCLOAK_PORT="${LAKEHOUSE_KEYCLOAK_PORT:-58180}"
KEYCLOAK_URL="http://${KEYCLOAK_HOST}:${KEYCLOAK_PORT}"
KEYCLOAK_REALM=lakehouse
KEYCLOAK_ISSUER="${KEYCLOAK_URL}/realms/${KEYCLOAK_REALM}"
KEYCLOAK_DIR="${LAKEHOUSE_HOME}/keycloak"
KEYCLOAK_DIST="${KEYCLOAK_DIR}/keycloak-${KEYCLOAK_VERSION}"
# The checksum of the realm file the database was imported from.
KEYCLOAK_REALM_SUM="${KEYCLOAK_DIR}/realm.sha256"
KEYCLOAK_LOG="${LH_LOG_DIR}/keycloak.log"
KEYCLOAK_REALM_FILE="${REPO_ROOT}/deploy/local/keycloak/lakehouse-realm.json"
KEYCLOAK_START_TIMEOUT="${LAKEHOUSE_KEYCLOAK_START_TIMEOUT:-180}"
# Marker in /proc/<pid>/cmdline of kc.sh and of the JVM it runs or execs after its one-time build.
KEYCLOAK_MARKER="${KEYCLOAK_DIST}/bin/"
# access-service creates the instances' OIDC clients with this confidential client's service
# account (realm-management: manage-clients, view-clients, query-clients). Local only.
KEYCLOAK_ADMIN_CLIENT=lakehouse-access
KEYCLOAK_ADMIN_SECRET=lakehouse-access-local-only
# Public client of `lakehouse token` (password grant; the seeded users' password is their name).
KEYCLOAK_CLI_CLIENT=lakehouse-cli

# Token mode of the running stack: "keycloak" after `up --with-keycloak`, else "local" (the
# local token issuer). Kept in a file so that `token` answers with what the services accept.
LH_TOKEN_MODE_FILE="${LH_RUN_DIR}/token-mode"
LH_TOKEN_MODE=

token_mode() {
  if [[ -n ${LH_TOKEN_MODE} ]]; then
    printf '%s\n' "${LH_TOKEN_MODE}"
  elif [[ -s ${LH_TOKEN_MODE_FILE} ]]; then
    cat "${LH_TOKEN_MODE_FILE}"
  else
    printf 'local\n'
  fi
}

token_mode_write() {
  mkdir -p "${LH_RUN_DIR}"
  printf '%s\n' "${LH_TOKEN_MODE}" >"${LH_TOKEN_MODE_FILE}"
}

keycloak_fetch() {
  [[ -f ${KEYCLOAK_DIST}/.complete ]] && return 0
  local t0 download="${KEYCLOAK_DIR}/download"
  t0=$(now_ms)
  log "fetching Keycloak ${KEYCLOAK_VERSION} from Maven Central into ${KEYCLOAK_DIR}"
  rm -rf "${KEYCLOAK_DIST}" "${download}"
  mkdir -p "${download}"
  # The standalone pom of the Kafka runtime serves as the project of dependency:copy.
  (cd "${REPO_ROOT}" && mvnw -q -B -f "${KAFKA_POM}" dependency:copy \
    "-Dartifact=org.keycloak:keycloak-quarkus-dist:${KEYCLOAK_VERSION}:zip" "-DoutputDirectory=${download}") ||
    die "could not fetch org.keycloak:keycloak-quarkus-dist:${KEYCLOAK_VERSION}:zip"
  keycloak_unzip "${download}/keycloak-quarkus-dist-${KEYCLOAK_VERSION}.zip"
  rm -rf "${download}"
  chmod +x "${KEYCLOAK_DIST}"/bin/*.sh
  : >"${KEYCLOAK_DIST}/.complete"
  log "Keycloak unpacked in ${KEYCLOAK_DIST} ($(elapsed_since "${t0}"))"
}

keycloak_unzip() {
  if command -v unzip >/dev/null 2>&1; then
    unzip -q -o "$1" -d "${KEYCLOAK_DIR}" || die "could not unzip $1"
  else
    python3 -m zipfile -e "$1" "${KEYCLOAK_DIR}" || die "could not unzip $1 (no unzip, no python3)"
  fi
  [[ -f ${KEYCLOAK_DIST}/bin/kc.sh ]] || die "$1 has no keycloak-${KEYCLOAK_VERSION}/bin/kc.sh"
}

keycloak_running() { running_pid keycloak "${KEYCLOAK_MARKER}" >/dev/null; }

keycloak_ready() {
  [[ $(curl -s -o /dev/null -w '%{http_code}' --max-time 3 \
    "${KEYCLOAK_ISSUER}/.well-known/openid-configuration" 2>/dev/null) == 200 ]]
}

# keycloak_start: starts Keycloak in the background when it is not running; does not wait.
keycloak_start() {
  local realm_sum
  realm_sum=$(sha256sum "${KEYCLOAK_REALM_FILE}" | cut -d' ' -f1)
  if keycloak_running; then
    [[ $(cat "${KEYCLOAK_REALM_SUM}" 2>/dev/null) == "${realm_sum}" ]] && return 0
    # --import-realm skips a realm that exists: a changed realm file needs a fresh Keycloak database.
    log "Keycloak: the realm file changed, restarting Keycloak with a fresh database"
    keycloak_down
  fi
  port_open "${KEYCLOAK_HOST}" "${KEYCLOAK_PORT}" &&
    die "port ${KEYCLOAK_PORT} (Keycloak) is taken by a process this stack did not start"
  keycloak_fetch
  if [[ $(cat "${KEYCLOAK_REALM_SUM}" 2>/dev/null) != "${realm_sum}" ]]; then
    rm -rf "${KEYCLOAK_DIST}/data/h2"
  fi
  mkdir -p "${KEYCLOAK_DIST}/data/import"
  cp "${KEYCLOAK_REALM_FILE}" "${KEYCLOAK_DIST}/data/import/lakehouse-realm.json"
  printf '%s\n' "${realm_sum}" >"${KEYCLOAK_REALM_SUM}"
  (
    export KC_BOOTSTRAP_ADMIN_USERNAME=admin KC_BOOTSTRAP_ADMIN_PASSWORD=admin
    start_bg keycloak "${KEYCLOAK_LOG}" "${KEYCLOAK_DIST}/bin/kc.sh" start-dev \
      "--http-host=${KEYCLOAK_HOST}" "--http-port=${KEYCLOAK_PORT}" --import-realm >/dev/null
  )
  LH_STARTED+=(keycloak)
  log "Keycloak: starting on ${KEYCLOAK_URL} (log ${KEYCLOAK_LOG})"
}

# keycloak_wait: until the realm's discovery document answers (KEYCLOAK_START_TIMEOUT s).
keycloak_wait() {
  local t0 pid deadline=$((SECONDS + KEYCLOAK_START_TIMEOUT))
  t0=$(now_ms)
  while ((SECONDS < deadline)); do
    if keycloak_ready; then
      log "Keycloak: realm ${KEYCLOAK_REALM} ready on ${KEYCLOAK_URL} ($(elapsed_since "${t0}") waiting)"
      return 0
    fi
    if ! pid=$(running_pid keycloak "${KEYCLOAK_MARKER}"); then
      show_log_tail "${KEYCLOAK_LOG}" 60
      die "Keycloak exited during start-up"
    fi
    sleep 1
  done
  show_log_tail "${KEYCLOAK_LOG}" 60
  keycloak_down
  die "Keycloak was not ready within ${KEYCLOAK_START_TIMEOUT}s"
}

keycloak_up() {
  keycloak_start
  keycloak_wait
}

# kc.sh stays as the shell parent of the JVM: stop the JVM (its children) first, then kc.sh.
keycloak_down() {
  local pid child
  if pid=$(running_pid keycloak "${KEYCLOAK_MARKER}"); then
    log "stopping keycloak (pid ${pid} and its JVM)"
    for child in $(pgrep -P "${pid}" 2>/dev/null || true); do
      stop_pid keycloak "${child}"
    done
    stop_pid keycloak "${pid}"
  fi
  rm -f "$(pid_file keycloak)"
}

keycloak_status() {
  local pid
  if pid=$(running_pid keycloak "${KEYCLOAK_MARKER}"); then
    if keycloak_ready; then
      status_line keycloak running "${pid}" "${KEYCLOAK_ISSUER}"
    else
      status_line keycloak starting "${pid}" "${KEYCLOAK_ISSUER}"
    fi
  else
    status_line keycloak "$(stopped_state "${KEYCLOAK_HOST}" "${KEYCLOAK_PORT}")" "" "${KEYCLOAK_ISSUER}"
  fi
}

# Deletes Keycloak's H2 database (the realm is imported again on the next start); keeps the distribution.
keycloak_purge() {
  rm -rf "${KEYCLOAK_DIST}/data/h2" "${KEYCLOAK_LOG}"
}

# keycloak_token USER: a real access token (password grant on lakehouse-cli; password = user name
# for the seeded users, or LAKEHOUSE_TOKEN_PASSWORD).
keycloak_token() {
  local user=$1 password=${LAKEHOUSE_TOKEN_PASSWORD:-$1} body token
  body=$(curl -s --max-time 10 "${KEYCLOAK_ISSUER}/protocol/openid-connect/token" \
    -d grant_type=password -d "client_id=${KEYCLOAK_CLI_CLIENT}" \
    --data-urlencode "username=${user}" --data-urlencode "password=${password}") ||
    die "Keycloak does not answer on ${KEYCLOAK_URL}"
  token=$(sed -n 's/.*"access_token":"\([^"]*\)".*/\1/p' <<<"${body}")
  [[ -n ${token} ]] || die "Keycloak refused the password grant for ${user}: ${body}"
  printf '%s\n' "${token}"
}
