# shellcheck shell=bash disable=SC2034 # variables shared with the other files of lib/
# Apache Kafka for the local stack: one real broker (KRaft, broker + controller
# in one process) on 127.0.0.1:59092, from the Maven Central jars that
# deploy/local/kafka/pom.xml lists (kafka_2.13 at the Quarkus BOM's
# kafka-clients version). Everything lives in $LAKEHOUSE_HOME/kafka; lib/ is
# downloaded once and kept by `down --purge`.

KAFKA_HOST=127.0.0.1
KAFKA_PORT="${LAKEHOUSE_KAFKA_PORT:-59092}"
KAFKA_CONTROLLER_PORT="${LAKEHOUSE_KAFKA_CONTROLLER_PORT:-59093}"
KAFKA_BOOTSTRAP="${KAFKA_HOST}:${KAFKA_PORT}"
KAFKA_DIR="${LAKEHOUSE_HOME}/kafka"
KAFKA_LIB="${KAFKA_DIR}/lib"
KAFKA_TOOLS="${KAFKA_DIR}/tools"
KAFKA_DATA="${KAFKA_DIR}/data"
KAFKA_CONF="${KAFKA_DIR}/server.properties"
KAFKA_LOG="${KAFKA_DIR}/kafka.log"
KAFKA_POM="deploy/local/kafka/pom.xml"
KAFKA_LOG4J="${REPO_ROOT}/deploy/local/kafka/log4j2.xml"
KAFKA_TOOLS_LOG4J="${REPO_ROOT}/deploy/local/kafka/tools-log4j2.xml"
KAFKA_START_TIMEOUT=60
# The broker's JVM beyond its heap. C1 only: C2 compiled for 3.4-3.8 s of the two cores in a short benchmark, while
# the broker's request threads cost the same on C1 (docs/benchmarks.md "The test bed's JIT").
KAFKA_JAVA_OPTS="${LAKEHOUSE_KAFKA_JAVA_OPTS:--XX:TieredStopAtLevel=1}"
# topic:partitions; each topic also gets <topic>.dlq with 1 partition.
KAFKA_TOPICS="${LAKEHOUSE_KAFKA_TOPICS:-lakehouse.instances:3 lakehouse.access:3 lakehouse.sparkjobs:3 lakehouse.audit:3}"
# The tests' twins of those topics (common's TestTopics.PREFIX): a stack on the same broker never reads their events.
KAFKA_TEST_TOPIC_PREFIX=test.
# Marker that identifies our broker in /proc/<pid>/cmdline.
KAFKA_MARKER="kafka.Kafka ${KAFKA_CONF}"

kafka_fetch_lib() {
  [[ -f ${KAFKA_LIB}/.complete ]] && return 0
  log "fetching the Kafka runtime from Maven Central into ${KAFKA_LIB}"
  rm -rf "${KAFKA_LIB}"
  (cd "${REPO_ROOT}" && mvnw -q -B -f "${KAFKA_POM}" dependency:copy-dependencies \
    -DincludeScope=runtime "-DoutputDirectory=${KAFKA_LIB}") || die "could not fetch the Kafka jars"
  : >"${KAFKA_LIB}/.complete"
}

kafka_write_config() {
  mkdir -p "${KAFKA_DATA}"
  cat >"${KAFKA_CONF}" <<EOF
# Written by deploy/local/lib/kafka.sh: single-node KRaft broker for local
# development and tests. Regenerated on every 'lakehouse up'.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@${KAFKA_HOST}:${KAFKA_CONTROLLER_PORT}
listeners=PLAINTEXT://${KAFKA_HOST}:${KAFKA_PORT},CONTROLLER://${KAFKA_HOST}:${KAFKA_CONTROLLER_PORT}
advertised.listeners=PLAINTEXT://${KAFKA_HOST}:${KAFKA_PORT}
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=${KAFKA_DATA}
num.partitions=3
auto.create.topics.enable=true
offsets.topic.replication.factor=1
offsets.topic.num.partitions=5
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=5
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
share.coordinator.state.topic.num.partitions=5
min.insync.replicas=1
group.initial.rebalance.delay.ms=0
EOF
}

# kafka_tool -cp CLASSPATH CLASS ARGS...: a short-lived Kafka client JVM.
kafka_tool() {
  java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
    "-Dlog4j2.configurationFile=${KAFKA_TOOLS_LOG4J}" "$@"
}

kafka_format() {
  [[ -f ${KAFKA_DATA}/meta.properties ]] && return 0
  local cluster_id
  cluster_id=$(kafka_tool -cp "${KAFKA_LIB}/*" kafka.tools.StorageTool random-uuid) || die "StorageTool random-uuid failed"
  printf '%s\n' "${cluster_id}" >"${KAFKA_DIR}/cluster.id"
  log "formatting ${KAFKA_DATA} (cluster id ${cluster_id})"
  kafka_tool -cp "${KAFKA_LIB}/*" kafka.tools.StorageTool format -t "${cluster_id}" -c "${KAFKA_CONF}" --ignore-formatted >/dev/null ||
    die "StorageTool format failed"
}

kafka_start_process() {
  local pid rc=0
  pid=$(start_bg kafka "${KAFKA_LOG}" java -Xmx512m -Xms256m ${KAFKA_JAVA_OPTS} \
    "-Dlog4j2.configurationFile=${KAFKA_LOG4J}" -cp "${KAFKA_LIB}/*" kafka.Kafka "${KAFKA_CONF}")
  wait_port "${KAFKA_HOST}" "${KAFKA_PORT}" "${KAFKA_START_TIMEOUT}" "${pid}" || rc=$?
  if ((rc != 0)); then
    show_log_tail "${KAFKA_LOG}"
    ((rc == 2)) && die "Kafka exited during start-up"
    stop_named kafka "${KAFKA_MARKER}"
    die "Kafka did not accept connections on ${KAFKA_BOOTSTRAP} within ${KAFKA_START_TIMEOUT}s"
  fi
}

# The topics as TOPIC:PARTITIONS words, each followed by its .dlq (1 partition), behind an optional prefix.
kafka_topic_specs() {
  local prefix=${1:-} entry
  for entry in ${KAFKA_TOPICS}; do
    printf '%s%s\n%s%s.dlq:1\n' "${prefix}" "${entry}" "${prefix}" "${entry%%:*}"
  done
}

# Creates the missing topics (idempotent), behind the prefix $1 if given. One JVM with the Admin API
# (deploy/local/kafka/EnsureTopics.java, compiled once into kafka/tools);
# without javac (or with LAKEHOUSE_KAFKA_TOPIC_COMMAND=1), TopicCommand
# (org.apache.kafka.tools.TopicCommand in 4.x; kafka.admin.TopicCommand is gone).
kafka_create_topics() {
  local specs created
  mapfile -t specs < <(kafka_topic_specs "${1:-}")
  if [[ ${LAKEHOUSE_KAFKA_TOPIC_COMMAND:-} != 1 ]] && kafka_compile_ensure_topics; then
    created=$(kafka_tool -cp "${KAFKA_TOOLS}:${KAFKA_LIB}/*" EnsureTopics "${KAFKA_BOOTSTRAP}" "${specs[@]}") ||
      die "could not create the Kafka topics"
  else
    created=$(kafka_create_topics_with_topic_command "${specs[@]}")
  fi
  if [[ -n ${created} ]]; then log "created topics: $(tr '\n' ' ' <<<"${created}")"; fi
}

kafka_compile_ensure_topics() {
  local src="${REPO_ROOT}/deploy/local/kafka/EnsureTopics.java"
  [[ -f ${KAFKA_TOOLS}/EnsureTopics.class && ${KAFKA_TOOLS}/EnsureTopics.class -nt ${src} ]] && return 0
  command -v javac >/dev/null 2>&1 || return 1
  mkdir -p "${KAFKA_TOOLS}"
  javac -nowarn -cp "${KAFKA_LIB}/*" -d "${KAFKA_TOOLS}" "${src}" >&2
}

# TOPIC:PARTITIONS... -> prints the topics it created.
kafka_create_topics_with_topic_command() {
  local existing spec
  existing=$(kafka_tool -cp "${KAFKA_LIB}/*" org.apache.kafka.tools.TopicCommand \
    --bootstrap-server "${KAFKA_BOOTSTRAP}" --list) || die "could not list the Kafka topics"
  for spec in "$@"; do
    grep -qxF "${spec%:*}" <<<"${existing}" && continue
    kafka_tool -cp "${KAFKA_LIB}/*" org.apache.kafka.tools.TopicCommand --bootstrap-server "${KAFKA_BOOTSTRAP}" \
      --create --if-not-exists --topic "${spec%:*}" --partitions "${spec##*:}" --replication-factor 1 >/dev/null ||
      die "could not create topic ${spec%:*}"
    printf '%s\n' "${spec%:*}"
  done
}

kafka_up() {
  local t0 pid
  t0=$(now_ms)
  mkdir -p "${KAFKA_DIR}"
  if pid=$(running_pid kafka "${KAFKA_MARKER}"); then
    wait_port "${KAFKA_HOST}" "${KAFKA_PORT}" "${KAFKA_START_TIMEOUT}" "${pid}" || die "Kafka (pid ${pid}) does not answer on ${KAFKA_BOOTSTRAP}"
    kafka_create_topics
    log "Kafka: already running on ${KAFKA_BOOTSTRAP} (reused, $(elapsed_since "${t0}"))"
    return 0
  fi
  if port_open "${KAFKA_HOST}" "${KAFKA_PORT}" || port_open "${KAFKA_HOST}" "${KAFKA_CONTROLLER_PORT}"; then
    die "port ${KAFKA_PORT} or ${KAFKA_CONTROLLER_PORT} is taken by a process this stack did not start"
  fi
  kafka_fetch_lib
  kafka_write_config
  kafka_format
  kafka_start_process
  log "Kafka: accepting connections on ${KAFKA_BOOTSTRAP} ($(elapsed_since "${t0}"))"
  kafka_create_topics
  LH_STARTED+=(kafka)
  log "Kafka: started, topics ready ($(elapsed_since "${t0}"))"
}

kafka_down() { stop_named kafka "${KAFKA_MARKER}"; }

kafka_status() {
  local pid
  if pid=$(running_pid kafka "${KAFKA_MARKER}"); then
    status_line kafka running "${pid}" "${KAFKA_BOOTSTRAP}"
  else
    status_line kafka "$(stopped_state "${KAFKA_HOST}" "${KAFKA_PORT}")" "" "${KAFKA_BOOTSTRAP}"
  fi
}

# Removes the broker's data, keeps the downloaded lib/.
kafka_purge() {
  rm -rf "${KAFKA_DATA}" "${KAFKA_CONF}" "${KAFKA_DIR}/cluster.id" "${KAFKA_LOG}"
}
