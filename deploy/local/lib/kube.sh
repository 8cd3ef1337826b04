# shellcheck shell=bash disable=SC2034 # variables shared with the other files of lib/
# Local Kubernetes API (fabric8 mock server in CRUD mode, from deploy/local-kit)
# on http://127.0.0.1:56443, knowing the custom resources of deploy/crds; and
# the local token keys ($LAKEHOUSE_HOME/keys) that services and `token` use.

KUBE_HOST=127.0.0.1
KUBE_PORT="${LAKEHOUSE_KUBE_PORT:-56443}"
KUBE_URL="http://${KUBE_HOST}:${KUBE_PORT}"
KUBE_LOG="${LH_LOG_DIR}/kube.log"
KUBE_MARKER="io.lakehouse.local.Main kube --port ${KUBE_PORT}"
KUBE_START_TIMEOUT=60
# How long the simulated kubelet/operators wait before reacting to a change (0 for benchmarks).
KUBE_DELAY_MS="${LAKEHOUSE_KUBE_DELAY_MS:-1000}"
KUBE_READY_LINE="local kubernetes API ready"
# Its heap holds every object as JSON plus the 20,000 changes kept for resuming watches: ≈ 190 KB per catalog.
# 256 MB ran out at 1,300 catalogs (the server then stopped answering); 2 GB leaves room for the bar's 10,000.
KUBE_HEAP="${LAKEHOUSE_KUBE_HEAP:-2g}"
# C1 only: the C2 compiler cost the test bed a third of its CPU in a short benchmark and, compiling while the
# services created, put P3's p99 at 88-508 ms against 46-57 ms with C1 (docs/benchmarks.md "The test bed's JIT").
KUBE_JAVA_OPTS="${LAKEHOUSE_KUBE_JAVA_OPTS:--XX:TieredStopAtLevel=1}"
KEYS_PUBLIC_B64="${LH_KEYS_DIR}/public.b64"

# Generates the token signing keys once; prints nothing.
keys_ensure() {
  [[ -s ${KEYS_PUBLIC_B64} ]] && return 0
  mkdir -p "${LH_KEYS_DIR}"
  chmod 700 "${LH_KEYS_DIR}"
  log "generating the local token keys in ${LH_KEYS_DIR}"
  local pub
  pub=$(local_kit keys "${LH_KEYS_DIR}") || die "local-kit keys failed"
  pub=$(printf '%s\n' "${pub}" | grep -v '^\s*$' | tail -n 1 | tr -d '[:space:]')
  [[ -n ${pub} ]] || die "local-kit keys printed no public key"
  printf '%s\n' "${pub}" >"${KEYS_PUBLIC_B64}"
}

# Waits for the ready line in the log (printed after the demo seed); a port
# that accepts connections without that line is accepted at the deadline.
kube_wait_ready() {
  local pid=$1 deadline=$((SECONDS + KUBE_START_TIMEOUT))
  while ((SECONDS < deadline)); do
    grep -qF "${KUBE_READY_LINE}" "${KUBE_LOG}" 2>/dev/null && return 0
    proc_running "${pid}" || return 2
    sleep 0.2
  done
  if port_open "${KUBE_HOST}" "${KUBE_PORT}"; then
    warn "no '${KUBE_READY_LINE}' line in ${KUBE_LOG}, but port ${KUBE_PORT} answers"
    return 0
  fi
  return 1
}

# Returns 1 (with a message) when deploy/local-kit is not written yet.
kube_up() {
  local t0 pid rc=0
  t0=$(now_ms)
  if [[ ${LAKEHOUSE_SKIP_KUBE:-} == 1 ]]; then
    log "Kubernetes API: skipped (LAKEHOUSE_SKIP_KUBE=1)"
    return 1
  fi
  if ! ensure_local_kit; then
    warn "deploy/local-kit is not written yet (no src/main/java/io/lakehouse/local/Main.java): local Kubernetes API and keys skipped"
    return 1
  fi
  keys_ensure
  if pid=$(running_pid kube "${KUBE_MARKER}"); then
    log "Kubernetes API: already running on ${KUBE_URL} (reused)"
    return 0
  fi
  port_open "${KUBE_HOST}" "${KUBE_PORT}" &&
    die "port ${KUBE_PORT} is taken by a process this stack did not start"
  : >"${KUBE_LOG}"
  local jvm_opts=("-Xmx${KUBE_HEAP}" ${KUBE_JAVA_OPTS})
  # the kit logs through JBoss LogManager when it is on its classpath
  if compgen -G "${REPO_ROOT}/${LOCAL_KIT_DIR}/target/lib/jboss-logmanager-*.jar" >/dev/null; then
    jvm_opts+=(-Djava.util.logging.manager=org.jboss.logmanager.LogManager)
  fi
  pid=$(cd "${REPO_ROOT}" && start_bg kube "${KUBE_LOG}" java "${jvm_opts[@]}" -cp "${LOCAL_KIT_CP}" \
    io.lakehouse.local.Main kube --port "${KUBE_PORT}" --crds "${REPO_ROOT}/deploy/crds" --delay-ms "${KUBE_DELAY_MS}")
  kube_wait_ready "${pid}" || rc=$?
  if ((rc != 0)); then
    show_log_tail "${KUBE_LOG}"
    ((rc == 2)) && die "the local Kubernetes API exited during start-up"
    stop_named kube "${KUBE_MARKER}"
    die "the local Kubernetes API was not ready within ${KUBE_START_TIMEOUT}s"
  fi
  LH_STARTED+=(kube)
  log "Kubernetes API: started on ${KUBE_URL}, simulator delay ${KUBE_DELAY_MS} ms ($(elapsed_since "${t0}"))"
}

kube_down() { stop_named kube "${KUBE_MARKER}"; }

kube_status() {
  local pid
  if pid=$(running_pid kube "${KUBE_MARKER}"); then
    status_line kube running "${pid}" "${KUBE_URL}"
  else
    status_line kube "$(stopped_state "${KUBE_HOST}" "${KUBE_PORT}")" "" "${KUBE_URL}"
  fi
}

# token USER [GROUP...]: prints only the bearer token on stdout.
kube_token() {
  [[ $# -ge 1 ]] || die "usage: lakehouse token USER [GROUP...]"
  ensure_local_kit || die "deploy/local-kit is not there yet: no tokens"
  keys_ensure
  local_kit token --keys "${LH_KEYS_DIR}" --issuer "${LH_ISSUER}" "$@"
}
