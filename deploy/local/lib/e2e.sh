# shellcheck shell=bash
# Helpers of the end-to-end checks in deploy/local/e2e (sourced after common.sh and kafka.sh): Kafka
# consumer groups of their own, HTTP calls that keep status and body, polling.

# e2e_channels SERVICE: "channel=topic[,topic...]" for each incoming Kafka channel of SERVICE, read
# from its application.properties and common's defaults (lakehouse-access is declared there; a
# channel without topic/topics reads the topic of its name).
e2e_channels() {
  local props channel topics
  props=("${REPO_ROOT}/$1-service/src/main/resources/application.properties"
    "${REPO_ROOT}/common/src/main/resources/META-INF/microprofile-config.properties")
  for channel in $(sed -n 's/^mp\.messaging\.incoming\.\([a-z-]*\)\.connector=.*/\1/p' "${props[@]}" | sort -u); do
    topics=$(sed -n "s/^mp\.messaging\.incoming\.${channel}\.topics\?=//p" "${props[@]}" | head -1)
    printf '%s=%s\n' "${channel}" "${topics:-${channel}}"
  done
}

# e2e_group RUN_ID SERVICE CHANNEL: the run's consumer group of a service's channel.
e2e_group() { printf '%s-%s-%s\n' "$1" "$2" "$3"; }

# e2e_place_groups RUN_ID SERVICE...: the run's consumer groups of every channel of the SERVICEs, placed
# at the end of their topics before the services start (one JVM: deploy/local/kafka/PlaceGroups.java).
# The services then see only the events of this run and miss none of them.
e2e_place_groups() {
  local run=$1 svc line specs=() src="${REPO_ROOT}/deploy/local/kafka/PlaceGroups.java" tools="${LAKEHOUSE_HOME}/kafka-tools"
  shift
  for svc in "$@"; do
    while IFS= read -r line; do
      specs+=("$(e2e_group "${run}" "${svc}" "${line%%=*}")=${line#*=}")
    done < <(e2e_channels "${svc}")
  done
  if [[ ! -f ${tools}/PlaceGroups.class || ${src} -nt ${tools}/PlaceGroups.class ]]; then
    mkdir -p "${tools}"
    javac -nowarn -cp "${KAFKA_LIB}/*" -d "${tools}" "${src}" >&2 || die "could not compile ${src}"
  fi
  kafka_tool -cp "${tools}:${KAFKA_LIB}/*" PlaceGroups "${KAFKA_BOOTSTRAP}" "${specs[@]}" ||
    die "could not place the consumer groups ${specs[*]}"
}

# e2e_export_groups RUN_ID SERVICE: makes SERVICE (started from this shell) use the run's groups.
e2e_export_groups() {
  local line channel
  while IFS= read -r line; do
    channel=${line%%=*}
    channel=${channel//-/_}
    export "MP_MESSAGING_INCOMING_${channel^^}_GROUP_ID=$(e2e_group "$1" "$2" "${line%%=*}")"
  done < <(e2e_channels "$2")
}

# e2e_start_services RUN_ID: starts every service of SERVICES at once on the run's consumer groups
# (placed first); fails when one does not become ready.
e2e_start_services() {
  local run=$1 s pids=() rc=0 names=()
  for s in ${SERVICES}; do names+=("$(svc_name "${s}")"); done
  e2e_place_groups "${run}" "${names[@]}"
  for s in ${SERVICES}; do
    (
      e2e_export_groups "${run}" "$(svc_name "${s}")"
      svc_start "${s}"
    ) &
    pids+=($!)
  done
  for s in "${pids[@]}"; do wait "${s}" || rc=1; done
  ((rc == 0)) || die "a service did not start (logs in ${LH_LOG_DIR})"
}

# e2e_http METHOD URL TOKEN [BODY [CONTENT_TYPE]]: prints the status code (000 when no answer); the
# body is in ${E2E_BODY}.
E2E_BODY="${LAKEHOUSE_HOME}/e2e-last-body"
e2e_http() {
  local method=$1 url=$2 token=$3 body=${4:-} type=${5:-application/json} auth=()
  [[ -n ${token} ]] && auth=(-H "Authorization: Bearer ${token}")
  curl -s -o "${E2E_BODY}" -w '%{http_code}' --max-time 20 -X "${method}" ${auth[@]+"${auth[@]}"} \
    ${body:+-H "Content-Type: ${type}"} ${body:+--data-binary "${body}"} "${url}" || true # curl prints 000 when nothing answered
}

# e2e_json EXPR: EXPR (Python, `j` = the last body parsed as JSON) printed; fails when it raises.
e2e_json() {
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); r=eval(sys.argv[2]); print(r if isinstance(r, str) else json.dumps(r))' \
    "${E2E_BODY}" "$1" 2>/dev/null
}

# e2e_await SECONDS COMMAND...: runs COMMAND every 0.25 s until it succeeds; fails after SECONDS.
e2e_await() {
  local limit=$1 deadline
  shift
  deadline=$(($(now_ms) + limit * 1000))
  until "$@"; do
    (($(now_ms) < deadline)) || return 1
    sleep 0.25
  done
}
