#!/usr/bin/env bash
# Runs the Azure Service Bus SDK tests (see README.md). Two steps, which CTest runs as separate
# tests (CMakeLists.txt):
#
#   run-sdk-tests.sh install <work-dir>          npm ci into <work-dir> (skipped when its
#                                                node_modules was installed from the same
#                                                package-lock.json), then copies the test files
#   run-sdk-tests.sh run <work-dir> <file>...    node --test <file>... in <work-dir>
#
# Why copy: the tests are ES modules, and Node resolves a bare import such as
# "@azure/service-bus" from the importing file's real location (NODE_PATH does not apply to ESM,
# and symlinked files resolve from their target). So the test files are copied next to the
# node_modules they need. <work-dir> is ${CMAKE_BINARY_DIR}/tests/sdk/node under CTest.
#
# run needs HOURGLASS_BIN, the hourglass executable. Without node or npm both steps fail (they do
# not skip): the SDK tests are part of the suite.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mode="${1:-}"
work="${2:-}"
if [[ -z "$mode" || -z "$work" ]]; then
  echo "usage: $0 install <work-dir> | run <work-dir> <test-file>..." >&2
  exit 2
fi

need() {
  if ! command -v "$1" >/dev/null 2>&1; then
    echo "ERROR: '$1' is not installed or not on PATH. The Azure SDK tests need Node.js 20" \
      "and npm (Debian: apt-get install nodejs npm)." >&2
    exit 1
  fi
}
need node
node_major="$(node -p 'process.versions.node.split(".")[0]')"
if (( node_major < 20 )); then
  echo "ERROR: Node.js $(node --version) is too old; the Azure SDK tests need Node.js 20 or newer." >&2
  exit 1
fi

case "$mode" in
install)
  need npm
  mkdir -p "$work"
  cp "$here/package.json" "$here/package-lock.json" "$work/"
  stamp="$work/node_modules/.hourglass-lock-stamp"
  want="$(sha256sum "$here/package-lock.json" | cut -d' ' -f1) node-$node_major"
  if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    echo "node_modules in $work is up to date with package-lock.json"
  else
    echo "npm ci in $work"
    (cd "$work" && npm ci --no-audit --no-fund)
    echo "$want" > "$stamp"
  fi
  # The test files and what they read, next to node_modules (see the top of this file).
  cp "$here"/*.mjs "$here/config.json" "$work/"
  ;;
run)
  shift 2
  if [[ $# -eq 0 ]]; then
    echo "usage: $0 run <work-dir> <test-file>..." >&2
    exit 2
  fi
  if [[ -z "${HOURGLASS_BIN:-}" ]]; then
    echo "ERROR: set HOURGLASS_BIN to the hourglass executable" >&2
    exit 1
  fi
  if [[ ! -d "$work/node_modules/@azure/service-bus" ]]; then
    echo "ERROR: $work/node_modules has no @azure/service-bus; run '$0 install $work' first" \
      "(CTest does it in the sdk_npm_ci fixture)" >&2
    exit 1
  fi
  cd "$work"
  exec node --test --test-reporter=spec "$@"
  ;;
*)
  echo "unknown mode '$mode'" >&2
  exit 2
  ;;
esac
