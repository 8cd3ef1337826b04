# shellcheck shell=bash disable=SC2034 # variables shared with the other files of lib/
# PostgreSQL for the local stack.
#
# - LAKEHOUSE_PG_ADMIN_URL set (postgresql://user:pass@host:port/db): that server
#   is used, nothing is started or stopped; database, roles and schemas are
#   created there (needs a psql client).
# - Otherwise a PRIVATE cluster in $LAKEHOUSE_HOME/pg on 127.0.0.1:55432. The
#   system cluster (Debian's "15 main" on 5432) is never touched.
#   Binaries (LAKEHOUSE_PG_BIN_SOURCE=auto|system|apt|zonky, default auto):
#     system  highest /usr/lib/postgresql/*/bin
#     apt     as root: apt-get install -y postgresql (the package's own "main"
#             cluster is not created), then system
#     zonky   io.zonky.test.postgres:embedded-postgres-binaries-linux-<arch>
#             from Maven Central (LAKEHOUSE_ZONKY_VERSION), unpacked into
#             $LAKEHOUSE_HOME/pg-dist (kept by `down --purge`)
#   initdb/pg_ctl refuse to run as root: as root they run as the OS user
#   `postgres` (or a system user `lakehouse-pg` created on demand).
#
# Hidden switches (tests of this script): LAKEHOUSE_PSQL=none pretends no psql
# client exists (the bootstrap then runs in single-user mode);
# LAKEHOUSE_PG_OS_USER=name picks (and creates) the OS user of a new cluster.

PG_HOST=127.0.0.1
PG_PORT="${LAKEHOUSE_PG_PORT:-55432}"
PG_DB=lakehouse
# The tests get a database of their own: they wipe their schemas at start.
PG_TEST_DB=lakehouse_test
PG_SUPERUSER=postgres
PG_SUPERPASS=postgres
PG_ROLES="${LAKEHOUSE_PG_ROLES:-catalog engines notebooks sparkjobs access}"
# Owns the schema "registry" (instance names shared by every service, see db/common V1_9).
PG_REGISTRY_ROLE=lakehouse_services
PG_BIN_SOURCE="${LAKEHOUSE_PG_BIN_SOURCE:-auto}"
PG_ZONKY_VERSION="${LAKEHOUSE_ZONKY_VERSION:-17.11.0}"
PG_FALLBACK_OS_USER=lakehouse-pg

# Set by pg_resolve_dirs.
PG_ROOT="" PG_DIR="" PG_DATA="" PG_SOCK="" PG_LOG="" PG_BINDIR_FILE=""
# Set by pg_resolve_bindir.
PG_BINDIR=""
# Set by pg_parse_admin_url.
PGX_USER="" PGX_PASS="" PGX_HOST="" PGX_PORT="" PGX_DB=""

pg_external() { [[ -n ${LAKEHOUSE_PG_ADMIN_URL:-} ]]; }

# --- external server -----------------------------------------------------------

pg_parse_admin_url() {
  local re='^postgres(ql)?://([^:@/]+)(:([^@/]*))?@([^:/?]+|\[[^]]+\])(:([0-9]+))?(/([^?]*))?(\?.*)?$'
  [[ ${LAKEHOUSE_PG_ADMIN_URL} =~ ${re} ]] ||
    die "LAKEHOUSE_PG_ADMIN_URL must look like postgresql://user:password@host:5432/postgres"
  PGX_USER=${BASH_REMATCH[2]}
  PGX_PASS=${BASH_REMATCH[4]}
  PGX_HOST=${BASH_REMATCH[5]}
  PGX_PORT=${BASH_REMATCH[7]:-5432}
  PGX_DB=${BASH_REMATCH[9]:-postgres}
}

# Host and port the services and tests connect to.
pg_service_host() {
  if pg_external; then pg_parse_admin_url; printf '%s\n' "${PGX_HOST}"; else printf '%s\n' "${PG_HOST}"; fi
}
pg_service_port() {
  if pg_external; then pg_parse_admin_url; printf '%s\n' "${PGX_PORT}"; else printf '%s\n' "${PG_PORT}"; fi
}
pg_url() { printf 'postgresql://%s:%s/%s\n' "$(pg_service_host)" "$(pg_service_port)" "${PG_DB}"; }
pg_test_url() { printf 'postgresql://%s:%s/%s\n' "$(pg_service_host)" "$(pg_service_port)" "${PG_TEST_DB}"; }

# --- OS user and directories -------------------------------------------------------

# The OS user that owns the private cluster.
pg_os_user() {
  if ! is_root; then
    id -un
  elif [[ -n ${PG_DATA} && -d ${PG_DATA} ]]; then
    stat -c %U "${PG_DATA}"
  elif [[ -n ${LAKEHOUSE_PG_OS_USER:-} ]]; then
    printf '%s\n' "${LAKEHOUSE_PG_OS_USER}"
  elif id -u postgres >/dev/null 2>&1; then
    printf 'postgres\n'
  else
    printf '%s\n' "${PG_FALLBACK_OS_USER}"
  fi
}

pg_ensure_os_user() {
  local user=$1
  id -u "${user}" >/dev/null 2>&1 && return 0
  log "creating system user ${user} (initdb and pg_ctl refuse to run as root)"
  useradd --system --user-group --no-create-home --home-dir /nonexistent \
    --shell /usr/sbin/nologin "${user}" || die "useradd ${user} failed"
}

# as_pg CMD...: runs CMD as the cluster's OS user.
as_pg() {
  if is_root; then
    runuser -u "$(pg_os_user)" -- "$@"
  else
    "$@"
  fi
}

# Where the cluster lives: $LAKEHOUSE_HOME, unless (as root) the postgres user
# cannot reach it (a checkout under a private directory); then /var/tmp.
pg_alt_root() {
  printf '/var/tmp/lakehouse-%s\n' "$(printf '%s' "${LAKEHOUSE_HOME}" | cksum | cut -d' ' -f1)"
}

pg_resolve_dirs() { # [create]
  local create=${1:-} user
  PG_ROOT=${LAKEHOUSE_HOME}
  if [[ ! -d ${LAKEHOUSE_HOME}/pg && -d $(pg_alt_root)/pg ]]; then
    PG_ROOT=$(pg_alt_root)
  elif [[ -n ${create} ]] && is_root; then
    mkdir -p "${LAKEHOUSE_HOME}"
    user=$(pg_os_user)
    pg_ensure_os_user "${user}"
    if [[ ! -d ${LAKEHOUSE_HOME}/pg ]] && ! runuser -u "${user}" -- test -x "${LAKEHOUSE_HOME}"; then
      PG_ROOT=$(pg_alt_root)
      warn "${user} cannot reach ${LAKEHOUSE_HOME}: the cluster lives in ${PG_ROOT}"
      mkdir -p "${PG_ROOT}"
      chmod 755 "${PG_ROOT}"
    fi
  fi
  PG_DIR=${PG_ROOT}/pg
  PG_DATA=${PG_DIR}/data
  PG_LOG=${PG_DIR}/postgres.log
  PG_BINDIR_FILE=${PG_DIR}/bindir
  PG_SOCK=${PG_DIR}/run
  # A Unix socket path must stay under 108 bytes.
  if ((${#PG_SOCK} > 80)); then
    PG_SOCK=/tmp/lakehouse-pg-$(printf '%s' "${PG_DIR}" | cksum | cut -d' ' -f1)
  fi
  if [[ -n ${create} ]]; then
    local user
    user=$(pg_os_user)
    mkdir -p "${PG_DIR}" "${PG_SOCK}"
    if is_root; then chown "${user}:" "${PG_DIR}" "${PG_SOCK}"; fi
    chmod 700 "${PG_DIR}" "${PG_SOCK}"
  fi
}

# --- binaries -------------------------------------------------------------------

pg_system_bindir() {
  local dir
  dir=$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin -type d 2>/dev/null | sort -V | tail -n 1)
  [[ -n ${dir} && -x ${dir}/initdb && -x ${dir}/pg_ctl && -x ${dir}/postgres ]] || return 1
  printf '%s\n' "${dir}"
}

pg_apt_install() {
  is_root || return 1
  command -v apt-get >/dev/null 2>&1 || return 1
  local conf=/etc/postgresql-common/createcluster.conf
  log "installing Debian's postgresql with apt-get (its system cluster 'main' is not created)"
  export DEBIAN_FRONTEND=noninteractive
  pg_apt_get install postgresql-common || return 1
  # Keep the package from creating and starting the system cluster "main":
  # the local stack runs its own private cluster. The conffile is restored.
  cp -p "${conf}" "${conf}.lakehouse-orig"
  printf '\ncreate_main_cluster = false\n' >>"${conf}"
  local rc=0
  pg_apt_get install postgresql || rc=$?
  mv -f "${conf}.lakehouse-orig" "${conf}"
  return "${rc}"
}

# pg_apt_get install PKG...: installs what is missing (never upgrades what is
# installed); retries once after `apt-get update`.
pg_apt_get() {
  apt-get install -y -q --no-upgrade "${@:2}" >/dev/null 2>&1 && return 0
  log "apt-get update"
  apt-get update -q >/dev/null 2>&1 || return 1
  apt-get install -y -q --no-upgrade "${@:2}" >&2
}

pg_zonky_arch() {
  case "$(uname -m)" in
    x86_64 | amd64) printf 'amd64\n' ;;
    aarch64 | arm64) printf 'arm64v8\n' ;;
    *) return 1 ;;
  esac
}

# Fetches and unpacks PostgreSQL from Maven Central (zonky embedded binaries).
pg_zonky_bindir() {
  local arch dist tmp artifact jar txz
  arch=$(pg_zonky_arch) || die "no zonky PostgreSQL binaries for $(uname -m)"
  dist=${PG_ROOT}/pg-dist/zonky-${PG_ZONKY_VERSION}-${arch}
  if [[ ! -x ${dist}/bin/postgres ]]; then
    command -v xz >/dev/null 2>&1 || die "xz is needed to unpack the zonky binaries"
    artifact=io.zonky.test.postgres:embedded-postgres-binaries-linux-${arch}:${PG_ZONKY_VERSION}
    log "fetching PostgreSQL ${PG_ZONKY_VERSION} binaries from Maven Central (${artifact})"
    tmp=$(mktemp -d "${PG_ROOT}/.pg-dist.XXXXXX")
    (cd "${REPO_ROOT}" && mvnw -q -B -N -f deploy/local/kafka/pom.xml dependency:copy \
      "-Dartifact=${artifact}" "-DoutputDirectory=${tmp}") || {
      rm -rf "${tmp}"
      die "could not fetch ${artifact}"
    }
    jar=$(find "${tmp}" -name '*.jar' | head -n 1)
    (cd "${tmp}" && jar xf "${jar}") || die "could not unpack ${jar}"
    txz=$(find "${tmp}" -name '*.txz' | head -n 1)
    [[ -n ${txz} ]] || die "no .txz inside ${jar}"
    mkdir -p "${tmp}/dist"
    tar -xJf "${txz}" -C "${tmp}/dist"
    mkdir -p "$(dirname "${dist}")"
    rm -rf "${dist}"
    mv "${tmp}/dist" "${dist}"
    rm -rf "${tmp}"
    chmod -R a+rX "${dist}"
  fi
  printf '%s/bin\n' "${dist}"
}

# Sets PG_BINDIR. A cluster keeps the binaries it was created with (recorded in
# $PG_DIR/bindir) unless LAKEHOUSE_PG_BIN_SOURCE forces a source.
pg_resolve_bindir() {
  if [[ ${PG_BIN_SOURCE} == auto && -f ${PG_BINDIR_FILE} ]]; then
    PG_BINDIR=$(<"${PG_BINDIR_FILE}")
    [[ -x ${PG_BINDIR}/postgres ]] && return 0
  fi
  case "${PG_BIN_SOURCE}" in
    system) PG_BINDIR=$(pg_system_bindir) || die "no PostgreSQL under /usr/lib/postgresql" ;;
    apt)
      pg_apt_install || die "apt-get install postgresql failed"
      PG_BINDIR=$(pg_system_bindir) || die "no PostgreSQL under /usr/lib/postgresql after apt-get"
      ;;
    zonky) PG_BINDIR=$(pg_zonky_bindir) ;;
    auto)
      if PG_BINDIR=$(pg_system_bindir); then
        :
      elif pg_apt_install && PG_BINDIR=$(pg_system_bindir); then
        :
      else
        log "no Debian PostgreSQL (not root or apt-get failed): using the Maven Central binaries"
        PG_BINDIR=$(pg_zonky_bindir)
      fi
      ;;
    *) die "LAKEHOUSE_PG_BIN_SOURCE must be auto, system, apt or zonky (got ${PG_BIN_SOURCE})" ;;
  esac
}

pg_major_of_bindir() { "$1/postgres" --version | awk '{ split($3, v, "."); print v[1] }'; }

# A psql client: same bin dir first, then Debian's, then PATH. LAKEHOUSE_PSQL
# overrides (a path, or "none").
pg_psql_bin() {
  local p
  if [[ -n ${LAKEHOUSE_PSQL:-} ]]; then
    [[ ${LAKEHOUSE_PSQL} == none ]] && return 1
    printf '%s\n' "${LAKEHOUSE_PSQL}"
    return 0
  fi
  for p in "${PG_BINDIR:+${PG_BINDIR}/psql}" \
    "$(find /usr/lib/postgresql -mindepth 3 -maxdepth 3 -path '*/bin/psql' 2>/dev/null | sort -V | tail -n 1)" \
    "$(command -v psql || true)"; do
    if [[ -n ${p} && -x ${p} ]]; then
      printf '%s\n' "${p}"
      return 0
    fi
  done
  return 1
}

# --- state ----------------------------------------------------------------------------

# Pid of the private cluster's postmaster, if it runs.
pg_private_pid() {
  local pid
  [[ -n ${PG_DATA} && -f ${PG_DATA}/postmaster.pid ]] || return 1
  pid=$(head -n 1 "${PG_DATA}/postmaster.pid")
  pid_alive "${pid}" postgres || return 1
  printf '%s\n' "${pid}"
}

pg_wait_ready() {
  local deadline=$((SECONDS + 30))
  while ((SECONDS < deadline)); do
    if [[ -x ${PG_BINDIR}/pg_isready ]]; then
      "${PG_BINDIR}/pg_isready" -q -h "${PG_HOST}" -p "${PG_PORT}" -t 2 && return 0
    else
      port_open "${PG_HOST}" "${PG_PORT}" && return 0
    fi
    sleep 0.2
  done
  return 1
}

# --- bootstrap: database, roles, schemas --------------------------------------------------

pg_sql_roles() { # one statement per line (single-user mode reads lines)
  local r
  for r in ${PG_ROLES}; do
    printf "DO \$\$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '%s') THEN CREATE ROLE %s LOGIN PASSWORD '%s'; ELSE ALTER ROLE %s LOGIN PASSWORD '%s'; END IF; END\$\$;\n" \
      "${r}" "${r}" "${r}" "${r}" "${r}"
  done
  # The group that owns the shared instance-name registry (schema registry): every service is a member.
  printf "DO \$\$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '%s') THEN CREATE ROLE %s NOLOGIN; END IF; END\$\$;\n" \
    "${PG_REGISTRY_ROLE}" "${PG_REGISTRY_ROLE}"
  for r in ${PG_ROLES}; do
    printf 'GRANT %s TO %s;\n' "${PG_REGISTRY_ROLE}" "${r}"
  done
}

pg_sql_schemas() {
  local r
  for r in ${PG_ROLES}; do
    printf 'CREATE SCHEMA IF NOT EXISTS %s AUTHORIZATION %s;\n' "${r}" "${r}"
    printf 'ALTER SCHEMA %s OWNER TO %s;\n' "${r}" "${r}"
  done
  printf 'CREATE SCHEMA IF NOT EXISTS registry AUTHORIZATION %s;\n' "${PG_REGISTRY_ROLE}"
}

# pg_fresh_database DB SERVICE...: DB dropped and made again, with each SERVICE's schema (owned by its
# role, made by the bootstrap) and the shared name registry: what the e2e checks and the fault suite
# run their own services on.
pg_fresh_database() {
  local db=$1 s sql=""
  shift
  if pg_external; then pg_parse_admin_url; fi
  printf 'DROP DATABASE IF EXISTS %s WITH (FORCE);\nCREATE DATABASE %s;\n' "${db}" "${db}" | pg_psql "${PGX_DB:-postgres}" ||
    die "could not make the database ${db} again"
  for s in "$@"; do
    sql+="CREATE SCHEMA ${s} AUTHORIZATION ${s};"$'\n'
  done
  sql+="CREATE SCHEMA registry AUTHORIZATION ${PG_REGISTRY_ROLE};"
  pg_psql "${db}" <<<"${sql}" || die "could not create the schemas of ${db}"
}

# pg_psql DB: runs psql (stdin SQL) as the superuser on the chosen server.
pg_psql() {
  local db=$1 psql
  psql=$(pg_psql_bin) || die "no psql client found (apt-get install postgresql-client)"
  if pg_external; then
    PGOPTIONS="-c client_min_messages=warning" PGHOST=${PGX_HOST} PGPORT=${PGX_PORT} PGUSER=${PGX_USER} \
      PGPASSWORD=${PGX_PASS} "${psql}" -X -q -v ON_ERROR_STOP=1 -d "${db}" >/dev/null
  else
    PGOPTIONS="-c client_min_messages=warning" PGPASSWORD=${PG_SUPERPASS} "${psql}" -X -q -v ON_ERROR_STOP=1 -h "${PG_SOCK}" -p "${PG_PORT}" \
      -U "${PG_SUPERUSER}" -d "${db}" >/dev/null
  fi
}

pg_bootstrap_psql() {
  local db
  {
    for db in ${PG_DB} ${PG_TEST_DB}; do
      printf "SELECT 'CREATE DATABASE %s' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '%s')\\gexec\n" "${db}" "${db}"
    done
    pg_sql_roles
  } | pg_psql "${PGX_DB:-postgres}" || die "could not create databases ${PG_DB}, ${PG_TEST_DB} and the service roles"
  for db in ${PG_DB} ${PG_TEST_DB}; do
    pg_sql_schemas | pg_psql "${db}" || die "could not create the service schemas in ${db}"
  done
}

# Without any psql client (zonky binaries only ship initdb, pg_ctl, postgres):
# the same SQL in single-user mode, while the server is stopped.
pg_bootstrap_single_user() {
  local out
  out=$({
    printf 'CREATE DATABASE %s\n' "${PG_DB}" "${PG_TEST_DB}"
    pg_sql_roles
  } | as_pg "${PG_BINDIR}/postgres" --single -D "${PG_DATA}" postgres 2>&1) || {
    printf '%s\n' "${out}" >&2
    die "single-user bootstrap failed"
  }
  local db
  for db in ${PG_DB} ${PG_TEST_DB}; do
    out+=$(pg_sql_schemas | as_pg "${PG_BINDIR}/postgres" --single -D "${PG_DATA}" "${db}" 2>&1) ||
      die "single-user bootstrap of ${db} failed"
  done
  if grep -E 'ERROR' <<<"${out}" | grep -vq 'already exists'; then
    printf '%s\n' "${out}" >&2
    die "single-user bootstrap reported errors"
  fi
}

# --- lifecycle ------------------------------------------------------------------------

pg_initdb() {
  local pwfile locale=C
  if locale -a 2>/dev/null | grep -qiE '^c\.utf-?8$'; then locale=C.UTF-8; fi
  pwfile=$(mktemp "${PG_DIR}/.pw.XXXXXX")
  printf '%s\n' "${PG_SUPERPASS}" >"${pwfile}"
  if is_root; then chown "$(pg_os_user):" "${pwfile}"; fi
  log "initdb ${PG_DATA} (PostgreSQL $(pg_major_of_bindir "${PG_BINDIR}"), locale ${locale})"
  if ! as_pg "${PG_BINDIR}/initdb" -D "${PG_DATA}" -U "${PG_SUPERUSER}" --auth-local=trust \
    --auth-host=scram-sha-256 -E UTF8 "--locale=${locale}" "--pwfile=${pwfile}" >"${PG_DIR}/initdb.log" 2>&1; then
    rm -f "${pwfile}"
    cat "${PG_DIR}/initdb.log" >&2
    die "initdb failed"
  fi
  rm -f "${pwfile}"
  printf '%s\n' "${PG_BINDIR}" >"${PG_BINDIR_FILE}"
}

pg_check_version() {
  local data_major bin_major
  data_major=$(<"${PG_DATA}/PG_VERSION")
  bin_major=$(pg_major_of_bindir "${PG_BINDIR}")
  [[ ${data_major} == "${bin_major}" ]] ||
    die "${PG_DATA} was created by PostgreSQL ${data_major}, the binaries in ${PG_BINDIR} are ${bin_major}: run 'deploy/local/lakehouse down --purge' (drops local data) or unset LAKEHOUSE_PG_BIN_SOURCE"
  printf '%s\n' "${PG_BINDIR}" >"${PG_BINDIR_FILE}"
}

# Appends "postgres" to LH_STARTED when this call started the cluster.
pg_up() {
  local t0 psql_ok=1
  t0=$(now_ms)
  if pg_external; then
    pg_parse_admin_url
    log "PostgreSQL: using ${PGX_HOST}:${PGX_PORT} (LAKEHOUSE_PG_ADMIN_URL), starting nothing"
    pg_bootstrap_psql
    return 0
  fi
  pg_resolve_dirs create
  if pg_private_pid >/dev/null; then
    # the running server's own binaries (whatever LAKEHOUSE_PG_BIN_SOURCE says)
    if [[ -f ${PG_BINDIR_FILE} ]]; then PG_BINDIR=$(<"${PG_BINDIR_FILE}"); else pg_resolve_bindir; fi
    pg_bootstrap_if_psql
    log "PostgreSQL: already running on ${PG_HOST}:${PG_PORT} (reused, $(elapsed_since "${t0}"))"
    return 0
  fi
  if port_open "${PG_HOST}" "${PG_PORT}"; then
    die "port ${PG_PORT} is taken by a server this stack did not start: stop it, or set LAKEHOUSE_PG_ADMIN_URL to use it"
  fi
  pg_resolve_bindir
  if [[ -f ${PG_DATA}/PG_VERSION ]]; then pg_check_version; else pg_initdb; fi
  pg_psql_bin >/dev/null || psql_ok=0
  if ((psql_ok == 0)); then
    log "no psql client: bootstrapping ${PG_DB} in single-user mode"
    pg_bootstrap_single_user
  fi
  # track_commit_timestamp: the benchmarks' P9 reads when a consumer's transaction committed (pg_xact_commit_timestamp).
  # LAKEHOUSE_PG_OPTIONS adds server options, e.g. "-c shared_preload_libraries=pg_stat_statements" to break the SQL down.
  as_pg "${PG_BINDIR}/pg_ctl" -D "${PG_DATA}" -l "${PG_LOG}" -w -t 60 \
    -o "-p ${PG_PORT} -c listen_addresses=${PG_HOST} -k ${PG_SOCK} -c synchronous_commit=off -c max_connections=200 -c track_commit_timestamp=on ${LAKEHOUSE_PG_OPTIONS:-}" \
    start >/dev/null || {
    show_log_tail "${PG_LOG}"
    die "PostgreSQL did not start"
  }
  pg_wait_ready || {
    show_log_tail "${PG_LOG}"
    die "PostgreSQL is not ready on ${PG_HOST}:${PG_PORT}"
  }
  ((psql_ok == 0)) || pg_bootstrap_psql
  LH_STARTED+=(postgres)
  log "PostgreSQL: started on ${PG_HOST}:${PG_PORT} from ${PG_BINDIR} ($(elapsed_since "${t0}"))"
}

pg_bootstrap_if_psql() {
  if pg_psql_bin >/dev/null; then pg_bootstrap_psql; fi
}

# Stops the private cluster if it runs (whatever LAKEHOUSE_PG_ADMIN_URL says:
# that one is ours); an external server is never touched.
pg_down() {
  pg_resolve_dirs
  local pid
  pid=$(pg_private_pid) || return 0
  log "stopping PostgreSQL (pid ${pid})"
  if [[ -f ${PG_BINDIR_FILE} ]] && PG_BINDIR=$(<"${PG_BINDIR_FILE}") && [[ -x ${PG_BINDIR}/pg_ctl ]]; then
    as_pg "${PG_BINDIR}/pg_ctl" -D "${PG_DATA}" -m fast -w -t 60 stop >/dev/null && return 0
  fi
  # pg_ctl unavailable: SIGINT is PostgreSQL's "fast" shutdown.
  kill -INT "${pid}" 2>/dev/null || true
  local waited=0
  while proc_running "${pid}" && ((waited < 150)); do
    sleep 0.2
    waited=$((waited + 1))
  done
  proc_running "${pid}" && stop_pid postgres "${pid}"
  return 0
}

pg_status() {
  if pg_external; then
    pg_parse_admin_url
    local state=stopped
    port_open "${PGX_HOST}" "${PGX_PORT}" && state=external
    status_line postgres "${state}" "" "${PGX_HOST}:${PGX_PORT} (LAKEHOUSE_PG_ADMIN_URL)"
    return 0
  fi
  pg_resolve_dirs
  local pid
  if pid=$(pg_private_pid); then
    status_line postgres running "${pid}" "${PG_HOST}:${PG_PORT} (data ${PG_DATA})"
  else
    status_line postgres "$(stopped_state "${PG_HOST}" "${PG_PORT}")" "" "${PG_HOST}:${PG_PORT}"
  fi
}

pg_purge() {
  pg_resolve_dirs
  [[ -d ${PG_DIR} ]] && log "removing ${PG_DIR}"
  rm -rf "${PG_DIR}"
  [[ ${PG_SOCK} == /tmp/lakehouse-pg-* ]] && rm -rf "${PG_SOCK}"
  [[ ${PG_ROOT} == "$(pg_alt_root)" ]] && rmdir "${PG_ROOT}" 2>/dev/null
  return 0
}
