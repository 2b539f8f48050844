#!/usr/bin/env bash
# The browser tests (a real headless Chromium against `onward serve --simulate`),
# after `swift build --build-tests`. Screenshots go to artifacts/screenshots/.
# Without pytest, Selenium or Chromium they are skipped with a message, unless
# ONWARD_REQUIRE_BROWSER=1 (as in CI), when that is a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! python3 -c "import pytest" 2>/dev/null; then
  if [ "${ONWARD_REQUIRE_BROWSER:-}" = "1" ]; then
    echo "browser tests cannot run: pytest is not installed (pip install pytest selenium)" >&2
    exit 1
  fi
  echo "browser tests skipped: pytest is not installed (pip install pytest selenium)" >&2
  exit 0
fi
# -rs prints why a test was skipped (no Selenium, no Chromium).
exec python3 -m pytest -q -rs -p no:cacheprovider Tests/Browser "$@"
