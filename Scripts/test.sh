#!/usr/bin/env bash
# Every test, in stages, each run even when one before it failed:
#   the import directions (Scripts/check-architecture.py) and the OpenAPI document's freshness; the build;
#   the GTFS-Realtime code's freshness (Scripts/check-generated.sh); the Swift tests (with a throwaway PostgreSQL cluster, Scripts/postgres.sh);
#   two servers on one PostgreSQL behind nginx (Scripts/scale-out-tests.sh); the API fuzzed from its
#   OpenAPI document (Scripts/api-fuzz.sh); the web app in a real headless Chromium (Scripts/browser-tests.sh,
#   screenshots in artifacts/screenshots/).
# First it installs what it can (Scripts/setup-test-tools.sh): Debian's packages when run as root, the
# Python tools in .venv-test. A stage whose tools are missing is skipped with a message saying what to
# install, unless ONWARD_REQUIRE_BROWSER / ONWARD_REQUIRE_POSTGRES / ONWARD_REQUIRE_PYTHON=1 (as in CI),
# when that is a failure. The last line counts the stages: `stages: N passed, N failed, N skipped`.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p artifacts
. Scripts/setup-test-tools.sh
# A stage script that skips exits with this (run alone, it exits 0).
export ONWARD_SKIP_STATUS=77

passed=0 failed=0 skipped=0
outcomes=()
stage() {
  local name=$1 rc
  shift
  echo "== $name"
  "$@"
  rc=$?
  case $rc in
    0) passed=$((passed + 1)); outcomes+=("passed   $name") ;;
    77) skipped=$((skipped + 1)); outcomes+=("skipped  $name") ;;
    *) failed=$((failed + 1)); outcomes+=("FAILED   $name (exit $rc)") ;;
  esac
}
skip_stage() { echo "== $1"; echo "$1 skipped: $2" >&2; skipped=$((skipped + 1)); outcomes+=("skipped  $1 ($2)"); }

architecture() { python3 Scripts/check-architecture.py --self-test && python3 Scripts/check-architecture.py; }

# A throwaway PostgreSQL cluster on a free port for the PostgreSQL tests, unless one is named already.
start_postgres() {
  [ -n "${ONWARD_TEST_POSTGRES_URL:-}" ] && return 0
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    echo "PostgreSQL is not installed (apt-get install postgresql): its tests are skipped" >&2
    return 0
  fi
  pg_folder=$(mktemp -d /tmp/onward-test-pg.XXXXXX)
  trap 'Scripts/postgres.sh stop "$pg_folder"' EXIT
  local port
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  if ONWARD_TEST_POSTGRES_URL=$(Scripts/postgres.sh start "$pg_folder" "$port"); then
    export ONWARD_TEST_POSTGRES_URL
    # The cluster's certificate authority, for the tests of each sslmode.
    if [ -f "$pg_folder/tls/ca.pem" ]; then export ONWARD_TEST_POSTGRES_CA="$pg_folder/tls/ca.pem"; fi
  else
    unset ONWARD_TEST_POSTGRES_URL
    echo "the test PostgreSQL cluster did not start: its tests are skipped" >&2
  fi
}

# The log is long and CI shows its end: a failure's lines are repeated there.
# Two runs: the planner's tests (long synchronous comparisons on whole feeds, up to 36 s each) first, then the rest.
# Swift Testing runs every test on the cooperative pool, two threads here: run together, those comparisons held the
# servers' tests' tasks for tens of seconds, and tests that bound a wait failed.
swift_tests() {
  local rc=0
  swift test --skip-build --filter TimetableTests 2>&1 | tee artifacts/swift-test.log || rc=1
  swift test --skip-build --skip TimetableTests 2>&1 | tee -a artifacts/swift-test.log || rc=1
  if [ $rc = 0 ]; then return 0; fi
  echo "Swift tests failed; the failures:" >&2
  grep -E "✘|recorded an issue|error: " artifacts/swift-test.log | grep -v "^20[0-9][0-9]-" | head -60 >&2 || true
  return 1
}

stage "imports follow ARCHITECTURE.md" architecture
stage "the OpenAPI document is current" python3 Scripts/openapi.py --check
stage "build" swift build --build-tests
if [ -x .build/debug/onward ] && [ "${outcomes[-1]:0:6}" = "passed" ]; then
  # After the build: the check builds protoc-gen-swift on the SwiftProtobuf the build made.
  stage "the GTFS-Realtime code is what its .proto makes" Scripts/check-generated.sh
  start_postgres
  stage "Swift tests" swift_tests
  # Two servers on one PostgreSQL behind nginx, one killed under load.
  stage "two servers on one PostgreSQL" Scripts/scale-out-tests.sh
  stage "API fuzzing" Scripts/api-fuzz.sh
  stage "the web app in a browser" Scripts/browser-tests.sh
else
  for s in "the GTFS-Realtime code is what its .proto makes" "Swift tests" "two servers on one PostgreSQL" "API fuzzing" "the web app in a browser"; do skip_stage "$s" "the build failed"; done
fi

echo
for o in "${outcomes[@]}"; do echo "  $o"; done
echo "stages: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
