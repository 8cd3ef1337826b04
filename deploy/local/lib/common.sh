# shellcheck shell=bash disable=SC2034 # variables shared with the other files of lib/
# Shared helpers of deploy/local/lakehouse: paths, logging, pid files, ports.
# Sourced, never executed. Expects REPO_ROOT to be set by the caller.

: "${REPO_ROOT:?REPO_ROOT must be set before sourcing common.sh}"

LAKEHOUSE_HOME=$(realpath -m "${LAKEHOUSE_HOME:-${REPO_ROOT}/.local}")
LH_RUN_DIR="${LAKEHOUSE_HOME}/run"
LH_LOG_DIR="${LAKEHOUSE_HOME}/logs"
# As the chart's terminationGracePeriodSeconds: a service stopping normally takes up to ~15 s (engines-service's five
# Kafka channels), more on a loaded machine; a SIGKILL leaves its consumers in their groups until their session ends.
LH_STOP_TIMEOUT="${LAKEHOUSE_STOP_TIMEOUT:-45}"
LH_ISSUER="https://lakehouse.local/issuer"
MVNW="${REPO_ROOT}/mvnw"
# Components that this invocation started (for `test` under CI=true).
LH_STARTED=()

log() { printf '[lakehouse] %s\n' "$*" >&2; }
warn() { printf '[lakehouse] WARNING: %s\n' "$*" >&2; }
die() {
  printf '[lakehouse] ERROR: %s\n' "$*" >&2
  exit 1
}

is_root() { [[ ${EUID} -eq 0 ]]; }

# Seconds since the epoch with millisecond precision, for the timings we print.
now_ms() { date +%s%3N; }
elapsed_since() { # start_ms -> "1.234s"
  local ms=$(($(now_ms) - $1))
  printf '%d.%03ds' $((ms / 1000)) $((ms % 1000))
}

ensure_dirs() {
  mkdir -p "${LAKEHOUSE_HOME}" "${LH_RUN_DIR}" "${LH_LOG_DIR}"
}

# --- ports -------------------------------------------------------------------

# True when something accepts TCP connections on host:port.
port_open() {
  local host=$1 port=$2
  (exec 3<>"/dev/tcp/${host}/${port}") 2>/dev/null
}

# wait_port HOST PORT TIMEOUT_S [PID]: polls until the port accepts connections;
# fails early when PID (the server we started) dies.
wait_port() {
  local host=$1 port=$2 timeout=$3 pid=${4:-}
  local deadline=$((SECONDS + timeout))
  while ((SECONDS < deadline)); do
    port_open "${host}" "${port}" && return 0
    if [[ -n ${pid} ]] && ! proc_running "${pid}"; then
      return 2
    fi
    sleep 0.2
  done
  return 1
}

# --- pid files ---------------------------------------------------------------

# True while PID exists and is not a zombie waiting to be reaped.
proc_running() {
  local state
  kill -0 "$1" 2>/dev/null || return 1
  state=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) || return 1
  [[ ${state} != Z ]]
}

pid_file() { printf '%s/%s.pid\n' "${LH_RUN_DIR}" "$1"; }

# pid_alive PID MARKER: the process exists and its command line contains MARKER
# (guards against a recycled pid after a reboot or a crash).
pid_alive() {
  local pid=$1 marker=$2 cmdline
  [[ ${pid} =~ ^[0-9]+$ ]] || return 1
  proc_running "${pid}" || return 1
  cmdline=$(tr '\0' ' ' <"/proc/${pid}/cmdline" 2>/dev/null) || return 1
  [[ ${cmdline} == *"${marker}"* ]]
}

# running_pid NAME MARKER: prints the pid of our running NAME, or fails.
# A stale pid file (process gone) is removed.
running_pid() {
  local name=$1 marker=$2 file pid
  file=$(pid_file "${name}")
  [[ -f ${file} ]] || return 1
  pid=$(<"${file}")
  if pid_alive "${pid}" "${marker}"; then
    printf '%s\n' "${pid}"
    return 0
  fi
  rm -f "${file}"
  return 1
}

# start_bg NAME LOGFILE CMD...: starts CMD detached (own session, immune to the
# terminal's Ctrl-C and hang-up), stdout+stderr appended to LOGFILE, writes the
# pid file and prints the pid.
start_bg() {
  local name=$1 logfile=$2
  shift 2
  mkdir -p "$(dirname "${logfile}")" "${LH_RUN_DIR}"
  printf '\n===== %s: starting %s =====\n' "$(date -Is)" "${name}" >>"${logfile}"
  nohup setsid "$@" >>"${logfile}" 2>&1 </dev/null &
  local pid=$!
  printf '%s\n' "${pid}" >"$(pid_file "${name}")"
  printf '%s\n' "${pid}"
}

# stop_pid NAME PID: SIGTERM, wait up to LH_STOP_TIMEOUT s, then SIGKILL.
stop_pid() {
  local name=$1 pid=$2 waited=0
  kill -TERM "${pid}" 2>/dev/null || return 0
  while proc_running "${pid}"; do
    if ((waited >= LH_STOP_TIMEOUT * 5)); then
      warn "${name} (pid ${pid}) still running after ${LH_STOP_TIMEOUT}s: SIGKILL"
      kill -KILL "${pid}" 2>/dev/null || true
      sleep 0.5
      break
    fi
    sleep 0.2
    waited=$((waited + 1))
  done
}

# stop_named NAME MARKER: stops the process of our pid file NAME, if running.
stop_named() {
  local name=$1 marker=$2 pid
  if pid=$(running_pid "${name}" "${marker}"); then
    log "stopping ${name} (pid ${pid})"
    stop_pid "${name}" "${pid}"
  fi
  rm -f "$(pid_file "${name}")"
}

# "stopped", or "foreign" when a process this stack did not start holds the port.
stopped_state() {
  if port_open "$1" "$2"; then printf 'foreign\n'; else printf 'stopped\n'; fi
}

# status_line COMPONENT STATE PID ENDPOINT
status_line() {
  printf '%-12s %-8s pid=%-8s %s\n' "$1" "$2" "${3:--}" "$4"
}

show_log_tail() {
  local file=$1 lines=${2:-40}
  if [[ -f ${file} ]]; then
    printf -- '----- last %d lines of %s -----\n' "${lines}" "${file}" >&2
    tail -n "${lines}" "${file}" >&2
    printf -- '-----\n' >&2
  fi
}

# --- maven -------------------------------------------------------------------

mvnw() { "${MVNW}" "$@"; }

# build_modules MODULE...: installs the given reactor modules (and what they
# need) without tests. Used when a jar the stack runs is missing.
build_modules() {
  local modules
  modules=$(IFS=,; printf '%s' "$*")
  log "building ${modules} (./mvnw -q -B install -DskipTests -pl ${modules} -am)"
  (cd "${REPO_ROOT}" && mvnw -q -B install -DskipTests -pl "${modules}" -am >&2) ||
    die "build of ${modules} failed"
}

# up_to_date JAR MODULE [DEP_MODULE...]: the jar exists and no source it is built from (the
# modules' sources and poms, the root pom) changed since, so a checkout moved by `git pull` or an
# edit is rebuilt instead of running yesterday's code.
up_to_date() {
  local jar=$1 newer m paths=(pom.xml)
  shift
  for m in "$@"; do paths+=("${m}/src/main" "${m}/pom.xml"); done
  [[ -f ${jar} ]] || return 1
  newer=$(cd "${REPO_ROOT}" && find "${paths[@]}" -newer "${jar}" -type f -print -quit 2>/dev/null)
  [[ -z ${newer} ]] || { log "${newer} changed since the last build of ${jar##*/}"; return 1; }
}

# A module is "ready" when it has a pom and main sources; modules still being
# written are skipped by `up` with a message instead of failing the stack.
module_ready() {
  local dir="${REPO_ROOT}/$1"
  [[ -f ${dir}/pom.xml && -d ${dir}/src/main ]]
}

# --- local-kit (kube mock API, keys, tokens) ----------------------------------

LOCAL_KIT_DIR="deploy/local-kit"
LOCAL_KIT_JAR="${REPO_ROOT}/${LOCAL_KIT_DIR}/target/local-kit-0.1.0-SNAPSHOT.jar"
LOCAL_KIT_CP="${LOCAL_KIT_JAR}:${REPO_ROOT}/${LOCAL_KIT_DIR}/target/lib/*"
LH_KEYS_DIR="${LAKEHOUSE_HOME}/keys"

# ensure_local_kit: builds deploy/local-kit when its jar (with the Main class)
# is missing. Fails (return 1) when the module is not written yet.
ensure_local_kit() {
  local_kit_jar_ok && up_to_date "${LOCAL_KIT_JAR}" "${LOCAL_KIT_DIR}" && return 0
  module_ready "${LOCAL_KIT_DIR}" || return 1
  [[ -f ${REPO_ROOT}/${LOCAL_KIT_DIR}/src/main/java/io/lakehouse/local/Main.java ]] || return 1
  build_modules "${LOCAL_KIT_DIR}"
  touch "${LOCAL_KIT_JAR}" # Maven keeps an unchanged jar's old time; the build is what up_to_date compares
  local_kit_jar_ok || die "build finished but ${LOCAL_KIT_JAR} has no io.lakehouse.local.Main"
}

local_kit_jar_ok() {
  # a zip's central directory holds the entry names uncompressed
  [[ -f ${LOCAL_KIT_JAR} ]] && grep -qaF 'io/lakehouse/local/Main.class' "${LOCAL_KIT_JAR}"
}

local_kit() { java -cp "${LOCAL_KIT_CP}" io.lakehouse.local.Main "$@"; }
