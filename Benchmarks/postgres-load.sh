#!/usr/bin/env bash
# Figures of servers on one PostgreSQL (release build only): listSavedRoutes (GET /api/v1/me/routes,
# one person with five routes) and shared-position updates (PUT /api/v1/trips/{id}/position) per
# second, through nginx to one `onward serve` and then to two, on one throwaway PostgreSQL cluster
# (Scripts/postgres.sh, fsync on). Everything (PostgreSQL, nginx, the servers, wrk) shares this
# machine's cores, so two servers cannot be faster than the cores allow: the figures show what a
# second server costs or gains here, not a cluster's capacity.
#
#   Benchmarks/postgres-load.sh
#
# Build first: swift build -c release --scratch-path .build-release --product onward
# Environment: BUILD (.build-release), RUNS (3), DURATION (10s), WARMUP (3s), THREADS (2), CONNECTIONS (32).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-.build-release}
BIN=$BUILD/release/onward
RUNS=${RUNS:-3}
DURATION=${DURATION:-10s}
WARMUP=${WARMUP:-3s}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-32}
[[ -x $BIN ]] || { echo "no release build at $BIN (swift build -c release --scratch-path $BUILD --product onward)" >&2; exit 1; }
command -v wrk >/dev/null && command -v nginx >/dev/null || { echo "needs wrk and nginx (apt-get install wrk nginx-light)" >&2; exit 1; }

WORK=$(mktemp -d /tmp/onward-pg-load.XXXXXX)
# The cluster runs as `postgres` (as root) and must reach its folder inside.
chmod 755 "$WORK"
PIDS=()
# nginx first (its keep-alive connections would hold the servers' graceful shutdown), then the
# servers (SIGTERM, then SIGKILL after 10 s, said aloud), then the cluster.
cleanup() {
    [[ -f $WORK/nginx.pid ]] && kill -TERM "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
    for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do
        for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        if kill -0 "$pid" 2>/dev/null; then echo "server $pid did not stop on SIGTERM within 10 s: killed" >&2; kill -KILL "$pid"; fi
    done
    Scripts/postgres.sh stop "$WORK/pg"
    rm -rf "$WORK"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
to_ms() { awk -v t="$1" 'BEGIN { if (t ~ /us$/) { sub(/us$/, "", t); printf "%.2f\n", t / 1000 } else if (t ~ /ms$/) { sub(/ms$/, "", t); printf "%.2f\n", t } else if (t ~ /s$/) { sub(/s$/, "", t); printf "%.2f\n", t * 1000 } }'; }

PG_URL=$(Scripts/postgres.sh start "$WORK/pg" "$(free_port)")
export ONWARD_DATABASE_URL="$PG_URL&search_path=load"
export ONWARD_TRUSTED_PROXIES=127.0.0.1 ONWARD_RATE_LIMIT=100000 ONWARD_RATE_BURST=1000000 ONWARD_LOG_LEVEL=warning

start_server() {
    local port=$1
    mkdir -p "$WORK/data-$port"
    "$BIN" serve --port "$port" --data-dir "$WORK/data-$port" >"$WORK/server-$port.log" 2>&1 &
    PIDS+=($!)
    for _ in $(seq 1 300); do
        curl -fsS -o /dev/null --max-time 1 "http://127.0.0.1:$port/health/ready" 2>/dev/null && return
        sleep 0.1
    done
    cat "$WORK/server-$port.log" >&2
    exit 1
}

FRONT=$(free_port)
nginx_to() {
    [[ -f $WORK/nginx.pid ]] && { kill -TERM "$(cat "$WORK/nginx.pid")"; sleep 0.5; }
    local servers=""
    for p in "$@"; do servers+="server 127.0.0.1:$p; "; done
    cat >"$WORK/nginx.conf" <<EOF
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $WORK/body;
    proxy_temp_path $WORK/proxy;
    upstream onward { $servers keepalive 64; }
    server {
        listen 127.0.0.1:$FRONT;
        location / {
            proxy_pass http://onward;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$http_host;
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
        }
    }
}
EOF
    nginx -c "$WORK/nginx.conf" -p "$WORK"
    for _ in $(seq 1 50); do curl -fsS -o /dev/null --max-time 1 "http://127.0.0.1:$FRONT/health/live" 2>/dev/null && return; sleep 0.1; done
    exit 1
}

A=$(free_port); B=$(free_port)
start_server "$A"
nginx_to "$A"
BASE=http://127.0.0.1:$FRONT
# One person with five routes and a trip; the token stays in this script's environment (never printed).
TOKEN=$(curl -fsS -H 'Content-Type: application/json' -d '{"username": "load", "password": "correct horse battery"}' "$BASE/api/v1/accounts" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
export TOKEN
stops=(SBKM SBHI SFTM SIST SHJN SLBB)
for i in 0 1 2 3 4; do
    curl -fsS -o /dev/null -H 'Content-Type: application/json' -H "Authorization: Bearer $TOKEN" \
        -d "{\"version\": $i, \"route\": {\"kind\": \"board\", \"stopId\": \"${stops[$i]}\", \"to\": \"${stops[$((i + 1))]}\"}}" "$BASE/api/v1/me/routes"
done
ENDS=$(date -u -d '+7 days' +%Y-%m-%dT%H:%M:%SZ)
TRIP=$(curl -fsS -H 'Content-Type: application/json' -H "Authorization: Bearer $TOKEN" -d "{\"name\": \"Load\", \"endsAt\": \"$ENDS\"}" "$BASE/api/v1/trips" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')
export POSITION_PATH="/api/v1/trips/$TRIP/position"
export POSITION_BODY="{\"latitude\": 42.5351, \"longitude\": 1.4889, \"accuracy\": 8, \"sharingUntil\": \"$(date -u -d '+1 hour' +%Y-%m-%dT%H:%M:%SZ)\"}"
cat >"$WORK/routes.lua" <<'EOF'
wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
EOF
cat >"$WORK/position.lua" <<'EOF'
wrk.method = "PUT"
wrk.path = os.getenv("POSITION_PATH")
wrk.body = os.getenv("POSITION_BODY")
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
EOF
status=$(curl -s -o /dev/null -w '%{http_code}' -X PUT -H 'Content-Type: application/json' -H "Authorization: Bearer $TOKEN" -d "$POSITION_BODY" "$BASE$POSITION_PATH")
[[ $status == 204 ]] || { echo "a position update answered $status" >&2; exit 1; }

echo "machine: $(nproc) cores, $(uname -sr); PostgreSQL $(psql -tA "$PG_URL" -c 'show server_version'), fsync $(psql -tA "$PG_URL" -c 'show fsync'), synchronous_commit $(psql -tA "$PG_URL" -c 'show synchronous_commit')"
echo "wrk -t$THREADS -c$CONNECTIONS -d$DURATION through nginx (keepalive to the servers), $RUNS runs after a ${WARMUP} warm-up; medians"

measure() {
    local what=$1 script=$2 path=$3 rates=() p99s=()
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" -s "$WORK/$script" "$BASE$path" >/dev/null
    for _ in $(seq 1 "$RUNS"); do
        out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "$WORK/$script" "$BASE$path")
        if grep -q "Non-2xx" <<<"$out"; then echo "$out" >&2; echo "non-2xx answers in $what" >&2; exit 1; fi
        rates+=("$(awk '/Requests\/sec/ { print $2 }' <<<"$out")")
        p99s+=("$(to_ms "$(awk '$1 == "99%" { print $2 }' <<<"$out")")")
    done
    printf '  %-30s %10s req/s (runs: %s)   p99 %6s ms\n' "$what" "$(printf '%s\n' "${rates[@]}" | median)" "${rates[*]}" \
        "$(printf '%s\n' "${p99s[@]}" | median)"
}

echo "one server:"
measure "listSavedRoutes" routes.lua /api/v1/me/routes
measure "position updates" position.lua "$POSITION_PATH"
start_server "$B"
nginx_to "$A" "$B"
echo "two servers (round robin):"
measure "listSavedRoutes" routes.lua /api/v1/me/routes
measure "position updates" position.lua "$POSITION_PATH"
