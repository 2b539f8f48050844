#!/usr/bin/env bash
# Fuzzes the JSON API from its own OpenAPI document with an independent tool
# (PyPI `schemathesis`): every request the document allows must be accepted, every
# one it forbids refused, and every answer must match its documented schema.
# Runs against the debug-built `onward serve` on the bundled network (after
# `swift build --build-tests`), with a fixed seed so a run can be replayed.
# Without schemathesis it is skipped with a message, unless ONWARD_REQUIRE_BROWSER=1 (CI).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v schemathesis >/dev/null; then
  if [ "${ONWARD_REQUIRE_BROWSER:-}" = "1" ]; then
    echo "API fuzzing cannot run: schemathesis is not installed (pip install schemathesis)" >&2
    exit 1
  fi
  echo "API fuzzing skipped: schemathesis is not installed (pip install schemathesis)" >&2
  exit "${ONWARD_SKIP_STATUS:-0}"
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
data=$(mktemp -d)
log="$data/serve.log"
# The rate limit would answer a fuzzer's burst with (documented) 429s: lift it for this run.
ONWARD_RATE_LIMIT=100000 ONWARD_RATE_BURST=100000 .build/debug/onward serve --simulate --port "$port" --data-dir "$data" >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$data"' EXIT
for _ in $(seq 1 150); do
  python3 -c "import urllib.request, sys; urllib.request.urlopen('http://127.0.0.1:$port/health/ready', timeout=2)" 2>/dev/null && break
  sleep 0.2
done
# A signed-in person, so the saved-routes operations are fuzzed past their 401.
token=$(python3 - "$port" <<'PY'
import json, sys, urllib.request
req = urllib.request.Request(f"http://127.0.0.1:{sys.argv[1]}/api/v1/accounts", method="POST",
                             data=json.dumps({"username": "fuzzer", "password": "a long fuzzing password"}).encode(),
                             headers={"Content-Type": "application/json"})
print(json.load(urllib.request.urlopen(req, timeout=10))["token"])
PY
)
fuzz() { schemathesis --config-file Scripts/schemathesis.toml run "http://127.0.0.1:$port/api/v1/openapi.json" -H "Authorization: Bearer $token" --max-examples "${ONWARD_FUZZ_EXAMPLES:-50}" --seed "${ONWARD_FUZZ_SEED:-20261124}" "$@"; }
# Signing out and deleting the account end the token, so they come last, on their own.
fuzz --exclude-operation-id signOut --exclude-operation-id deleteMe
fuzz --include-operation-id signOut --include-operation-id deleteMe
