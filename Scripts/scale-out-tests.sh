#!/usr/bin/env bash
# The multi-instance test: two `onward serve` processes (the debug build) on one PostgreSQL behind
# nginx, one killed with SIGKILL under load (Tests/MultiInstance). Needs ONWARD_TEST_POSTGRES_URL
# (Scripts/test.sh starts a throwaway cluster), nginx and websocket-client; skipped with a message
# without them, unless ONWARD_REQUIRE_POSTGRES=1 (as in CI), when that is a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! python3 -c "import pytest" 2>/dev/null; then
  if [ "${ONWARD_REQUIRE_POSTGRES:-}" = "1" ]; then
    echo "multi-instance test cannot run: pytest is not installed (pip install pytest websocket-client)" >&2
    exit 1
  fi
  echo "multi-instance test skipped: pytest is not installed (pip install pytest websocket-client)" >&2
  exit 0
fi
exec python3 -m pytest -q -rs -s -p no:cacheprovider Tests/MultiInstance "$@"
