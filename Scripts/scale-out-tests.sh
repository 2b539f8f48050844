#!/usr/bin/env bash
# The multi-instance tests: two `onward serve` processes (the debug build) on one PostgreSQL behind
# nginx, one killed with SIGKILL under load; two keeping one feed current under wrk's load, traced
# (Tests/MultiInstance). Needs ONWARD_TEST_POSTGRES_URL (Scripts/test.sh starts a throwaway cluster),
# nginx, wrk, websocket-client and opentelemetry-proto; skipped with a message
# without them, unless ONWARD_REQUIRE_POSTGRES=1 (as in CI), when that is a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/pytest-available.sh
pytest_available "multi-instance test" ONWARD_REQUIRE_POSTGRES || exit "${ONWARD_SKIP_STATUS:-0}"
run_pytest -q -rs -s -p no:cacheprovider Tests/MultiInstance "$@"
