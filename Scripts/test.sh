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
swift test --skip-build
Scripts/api-fuzz.sh
Scripts/browser-tests.sh
