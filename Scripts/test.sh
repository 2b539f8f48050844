#!/usr/bin/env bash
# Every test: the Swift tests, then the browser tests (a real headless Chromium
# against `onward serve --simulate`). Screenshots go to artifacts/screenshots/.
# Without pytest, Selenium or Chromium the browser tests are skipped with a message
# (unless ONWARD_REQUIRE_BROWSER=1, as in CI): see Scripts/browser-tests.sh. Between them,
# the API is fuzzed from its OpenAPI document (Scripts/api-fuzz.sh, PyPI schemathesis).
set -euo pipefail
cd "$(dirname "$0")/.."
# Generated files are current: the OpenAPI document is what its generator makes.
python3 Scripts/openapi.py --check
swift build --build-tests
# The log is long and CI shows its end: a failure's lines are repeated there.
mkdir -p artifacts
if ! swift test --skip-build 2>&1 | tee artifacts/swift-test.log; then
  echo "Swift tests failed; the failures:" >&2
  grep -E "✘|recorded an issue|error: " artifacts/swift-test.log | grep -v "^20[0-9][0-9]-" | head -60 >&2 || true
  exit 1
fi
Scripts/api-fuzz.sh
Scripts/browser-tests.sh
