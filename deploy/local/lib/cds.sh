# shellcheck shell=bash disable=SC2034 # variables shared with the other files of lib/
# AppCDS for the services of the local stack (docs/benchmarks.md "Boot and resident memory: AppCDS"): a
# dynamic class-data archive per service, written by the JVM when a service started without one exits
# (-XX:ArchiveClassesAtExit), mapped by every later start (-XX:SharedArchiveFile):
# ~10,000 of the ~14,000 classes a service loads then come pre-parsed and pre-verified from the archive
# (a third less CPU to /q/health/ready, metaspace 67 -> 19 MB). No build step: the first start of a new
# jar pays one more start and stop, with the dump (7-30 s on a loaded machine).
#
# The archives live next to the jar (<module>/target/cds/), so every stack that runs that jar (up, the
# e2e checks, the benchmarks) shares them and `mvn clean` drops them. Each dumping JVM writes a file of
# its own (two stacks may dump at once; a JVM killed while dumping leaves a broken file); the next start
# keeps the newest file the JVM accepts for this jar and these options, and deletes the rest. The JVM
# itself refuses an archive of another jar (size, mtime) or another JDK; without an archive the service
# simply starts as before.
#
# A start that finds no archive for its jar first runs the service once to ready and stops it, so that the
# archive exists before the start that stays (svc_train; `up` trains every service at once; LAKEHOUSE_CDS_TRAIN=0:
# that start writes it at its exit instead, and runs 20-30 MiB larger until then).
#
# LAKEHOUSE_CDS=0 turns it off (e.g. to measure without it).
SERVICES_CDS="${LAKEHOUSE_CDS:-1}"
SERVICES_CDS_TRAIN="${LAKEHOUSE_CDS_TRAIN:-1}"
# How long `down` waits for a service that dumps its archive at exit (the normal stop waits LH_STOP_TIMEOUT).
SERVICES_CDS_STOP_TIMEOUT="${LAKEHOUSE_CDS_STOP_TIMEOUT:-60}"

cds_dir() { printf '%s/%s/target/cds\n' "${REPO_ROOT}" "$(svc_module "$1")"; }

# cds_usable ARCHIVE JAR OPTIONS...: the JVM maps ARCHIVE for JAR with OPTIONS (-Xshare:on fails otherwise).
cds_usable() {
  local archive=$1 jar=$2
  shift 2
  [[ -s ${archive} ]] && java "$@" -Xshare:on -XX:SharedArchiveFile="${archive}" -cp "${jar}" -version >/dev/null 2>&1
}

# cds_options SERVICE OPTIONS...: the JVM options that use the service's archive, or else dump one at exit.
# Promotes the newest usable dump to <dir>/app.jsa first.
cds_options() {
  local s=$1 dir jar f dumps
  shift
  [[ ${SERVICES_CDS} == 1 ]] || return 0
  dir=$(cds_dir "${s}")
  jar=$(svc_jar "${s}")
  mkdir -p "${dir}"
  if ! cds_usable "${dir}/app.jsa" "${jar}" "$@"; then
    rm -f "${dir}/app.jsa"
    mapfile -t dumps < <(ls -t "${dir}"/dump-*.jsa 2>/dev/null)
    for f in "${dumps[@]}"; do
      if [[ ! -e ${dir}/app.jsa ]] && cds_usable "${f}" "${jar}" "$@"; then mv "${f}" "${dir}/app.jsa"; else rm -f "${f}"; fi
    done
  fi
  # -Xlog:cds*=off: the dump lists every class it skips (thousands of lines) in the service's log.
  if [[ -e ${dir}/app.jsa ]]; then
    printf -- '-XX:SharedArchiveFile=%s -Xlog:cds*=off\n' "${dir}/app.jsa"
  else
    printf -- '-XX:ArchiveClassesAtExit=%s/dump-%s-%s.jsa -Xlog:cds*=off\n' "${dir}" "$(date +%s%N)" "$$"
  fi
}

# cds_dumping SERVICE: the running service writes an archive when it exits.
cds_dumping() {
  local pid
  pid=$(running_pid "$(svc_name "$1")" "$(svc_jar "$1")") || return 1
  tr '\0' '\n' <"/proc/${pid}/cmdline" 2>/dev/null | grep -q '^-XX:ArchiveClassesAtExit='
}
