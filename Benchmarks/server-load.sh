#!/usr/bin/env bash
# Load figures of `onward serve` (release build only).
#
#   Benchmarks/server-load.sh [http|live|journeys|people|all] [onward-load options...]
#
# http (default): starts `onward serve --simulate` on 127.0.0.1:$PORT, waits for
#   /health/ready, then for each endpoint runs wrk once to warm up and $RUNS times
#   to measure (-t$THREADS -c$CONNECTIONS -d$DURATION --latency), printing requests/s
#   and p99 for each run and their medians, with the load average before each run.
#   Endpoints: the departures board (JSON), stop search, /health/live (the floor:
#   no work beyond the framework and middleware), and the HTML board page if it
#   answers 200. Then SIGTERM, and a check that the server exited. Then the floor: `onward-load
#   bare` (a Hummingbird route with no middleware) serving the departures body, then the page's,
#   byte for byte, measured the same way, and each route's requests/s as a share of its floor.
# journeys: starts `onward serve --feed` on Halifax (HALIFAX_FEED) and runs wrk with
#   Benchmarks/journeys.lua (planJourney between random pairs of the feed's served stops at
#   random times 06:00-22:00 on JOURNEY_DATE) at JOURNEY_CONNECTIONS (2 16) connections.
# people: listSavedRoutes (GET /api/v1/me/routes) of one signed-in person with five routes,
#   with a bearer token (made by the script, never printed).
# live: runs onward-load (1,000 WebSocket subscribers on one board, 20 updates)
#   $LIVE_RUNS times, with a raised open-file limit, and prints each report and
#   the median p99.
#
# Build first (same scratch path):
#   swift build -c release --scratch-path .build-release --product onward
#   swift build -c release --scratch-path .build-release --product onward-load
#
# Environment: PORT (8181), RUNS (3), DURATION (15s), WARMUP (5s), THREADS (2),
# CONNECTIONS (64), LIVE_RUNS (3), DATA_DIR (/tmp/onward-load-data), BUILD (.build-release),
# HALIFAX_FEED (../shared/data/gtfs/halifax-transit-2025-08.zip), JOURNEY_DATE (2025-11-06),
# JOURNEY_CONNECTIONS ("2 16").
set -euo pipefail

cd "$(dirname "$0")/.."
MODE=${1:-http}
[[ $# -gt 0 ]] && shift
PORT=${PORT:-8181}
RUNS=${RUNS:-3}
DURATION=${DURATION:-15s}
WARMUP=${WARMUP:-5s}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-64}
LIVE_RUNS=${LIVE_RUNS:-3}
DATA_DIR=${DATA_DIR:-/tmp/onward-load-data}
BUILD=${BUILD:-.build-release}
SERVER_BIN=$BUILD/release/onward
LOAD_BIN=$BUILD/release/onward-load
BASE=http://127.0.0.1:$PORT
SERVER_PID=
# What the server serves: the bundled network with simulated live data, unless a mode says otherwise.
SERVE_ARGS=(--simulate)
SERVER_LOG=$(mktemp /tmp/onward-serve-log.XXXXXX)
WRK_OUT=$(mktemp /tmp/onward-wrk.XXXXXX)
TIME_OUT=$(mktemp /tmp/onward-wrk-time.XXXXXX)

die() { echo "server-load: $*" >&2; exit 1; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

# Whatever happens, the server does not outlive the script.
cleanup() {
    if [[ -n $SERVER_PID ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        sleep 2
        kill -KILL "$SERVER_PID" 2>/dev/null || true
    fi
    rm -f "$WRK_OUT" "$TIME_OUT"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The median of numbers, one a line.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# wrk's latency (e.g. 812.00us, 1.23ms, 1.01s) in milliseconds.
to_ms() { awk -v t="$1" 'BEGIN {
    if (t ~ /us$/) { sub(/us$/, "", t); printf "%.3f\n", t / 1000 }
    else if (t ~ /ms$/) { sub(/ms$/, "", t); printf "%.3f\n", t }
    else if (t ~ /m$/) { sub(/m$/, "", t); printf "%.3f\n", t * 60000 }
    else if (t ~ /s$/) { sub(/s$/, "", t); printf "%.3f\n", t * 1000 }
    else print "nan" }'; }

# CPU seconds (user + system) the server has used so far.
server_cpu() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f\n", ($14 + $15) / hz }' "/proc/$SERVER_PID/stat"; }

machine() {
    echo "machine: $(nproc) cores (nproc), $(uname -sr), load average $(loadavg)"
    echo "date:    $(date -u +%Y-%m-%dT%H:%M:%SZ)"
}

start_server() {
    [[ -x $SERVER_BIN ]] || die "no release build at $SERVER_BIN (swift build -c release --scratch-path $BUILD --product onward)"
    if curl -s -o /dev/null --max-time 1 "$BASE/health/live"; then die "something already answers on port $PORT"; fi
    mkdir -p "$DATA_DIR"
    # The API's per-client limit (50/s, bursts of 100) would throttle wrk: raise it.
    # (rate_limit is capped at 100000 by the configuration, burst at 1000000.)
    ONWARD_RATE_LIMIT=100000 ONWARD_RATE_BURST=1000000 \
        "$SERVER_BIN" serve "${SERVE_ARGS[@]}" --port "$PORT" --data-dir "$DATA_DIR" >"$SERVER_LOG" 2>&1 &
    SERVER_PID=$!
    local i
    for i in $(seq 1 600); do
        kill -0 "$SERVER_PID" 2>/dev/null || { cat "$SERVER_LOG" >&2; die "the server exited before it was ready"; }
        if curl -fsS -o /dev/null --max-time 1 "$BASE/health/ready" 2>/dev/null; then
            echo "server:  $SERVER_BIN serve ${SERVE_ARGS[*]} --port $PORT --data-dir $DATA_DIR (pid $SERVER_PID), ready after $((i / 10)).$((i % 10)) s"
            echo "         ONWARD_RATE_LIMIT=100000 ONWARD_RATE_BURST=1000000; /health/ready: $(curl -s "$BASE/health/ready" | head -c 160)"
            return
        fi
        sleep 0.1
    done
    die "the server was not ready after 60 s"
}

stop_server() {
    kill -TERM "$SERVER_PID"
    local i
    for i in $(seq 1 100); do
        if ! kill -0 "$SERVER_PID" 2>/dev/null; then
            local status=0
            wait "$SERVER_PID" || status=$?
            echo "stop:    SIGTERM; the server exited after $((i / 10)).$((i % 10)) s with status $status"
            SERVER_PID=
            [[ $status -eq 0 ]] || { tail -20 "$SERVER_LOG" >&2; die "the server exited with status $status"; }
            return
        fi
        sleep 0.1
    done
    die "the server was still running 10 s after SIGTERM"
}

# One endpoint: a warm-up, then $RUNS measured runs; prints each and the medians.
# Sets BENCH_RPS and BENCH_P99 (medians). With SCRIPT set, wrk runs that Lua script
# (which makes each request) and $path is only the sample checked first.
bench() {
    local label=$1 path=$2 run rps p50 p99 non2xx errors cpu0 cpu1 load wrk_cpu
    local rps_all=() p99_all=() script=() header=()
    [[ -z ${SCRIPT:-} ]] || script=(-s "$SCRIPT")
    # HEADER (e.g. a bearer token) is sent with every request and never printed.
    [[ -z ${HEADER:-} ]] || header=(-H "$HEADER")
    local code
    code=$(curl -s -o /dev/null -w '%{http_code}' "${header[@]}" "$BASE$path")
    [[ $code == 200 ]] || die "$path answered $code, not 200"
    echo
    echo "== $label: GET $path ($(curl -s "${header[@]}" "$BASE$path" | wc -c) bytes)"
    echo "   wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency ${script[*]}${HEADER:+ -H '${HEADER%%:*}: …'} $BASE$path   (after a $WARMUP warm-up)"
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" "${script[@]}" "${header[@]}" "$BASE$path" >/dev/null
    for run in $(seq 1 "$RUNS"); do
        load=$(loadavg)
        cpu0=$(server_cpu)
        # wrk shares the cores with the server: its own CPU time is measured too.
        /usr/bin/time -f '%U %S' -o "$TIME_OUT" wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "${script[@]}" "${header[@]}" "$BASE$path" >"$WRK_OUT"
        cpu1=$(server_cpu)
        wrk_cpu=$(awk '{ printf "%.1f\n", $1 + $2 }' "$TIME_OUT")
        rps=$(awk '/^Requests\/sec:/ { print $2 }' "$WRK_OUT")
        p50=$(to_ms "$(awk '$1 == "50%" { print $2 }' "$WRK_OUT")")
        p99=$(to_ms "$(awk '$1 == "99%" { print $2 }' "$WRK_OUT")")
        non2xx=$(awk '/Non-2xx or 3xx responses:/ { print $NF }' "$WRK_OUT")
        errors=$(awk '/Socket errors:/ { sub(/^ *Socket errors: */, ""); print }' "$WRK_OUT")
        printf '   run %d: %8.0f req/s   p50 %7.3f ms   p99 %7.3f ms   CPU: server %3.0f%%, wrk %3.0f%% of one core   non-2xx %s%s   load avg before %s\n' \
            "$run" "$rps" "$p50" "$p99" "$(echo "($cpu1 - $cpu0) * 100 / ${DURATION%s}" | bc -l)" \
            "$(echo "$wrk_cpu * 100 / ${DURATION%s}" | bc -l)" "${non2xx:-0}" "${errors:+   socket errors: $errors}" "$load"
        [[ -z $non2xx ]] || echo "   WARNING: $non2xx answers were not 2xx (rate limited?): the figures are not the endpoint's"
        rps_all+=("$rps"); p99_all+=("$p99")
    done
    BENCH_RPS=$(printf '%s\n' "${rps_all[@]}" | median)
    BENCH_P99=$(printf '%s\n' "${p99_all[@]}" | median)
    printf '   median of %d: %.0f req/s, p99 %.3f ms\n' "$RUNS" "$BENCH_RPS" "$BENCH_P99"
}

http_figures() {
    command -v wrk >/dev/null || die "wrk is not installed"
    [[ -x /usr/bin/time ]] || die "/usr/bin/time is needed (apt-get install time)"
    echo "# onward serve: HTTP throughput and latency (wrk)"
    machine
    start_server
    local departures="/api/v1/stops/SLBB/departures?limit=10"
    local bodies
    bodies=$(mktemp -d /tmp/onward-bodies.XXXXXX)
    curl -fsS "$BASE$departures" >"$bodies/departures.json"
    bench "Departures board (JSON)" "$departures"
    local board_rps=$BENCH_RPS board_p99=$BENCH_P99
    bench "Stop search (JSON)" "/api/v1/stops?q=blok"
    bench "Liveness (floor: framework and middleware only)" "/health/live"
    local page_code
    page_code=$(curl -s -o /dev/null -w '%{http_code}' "$BASE/stops/SLBB")
    local page_rps=
    if [[ $page_code == 200 ]]; then
        curl -fsS "$BASE/stops/SLBB" >"$bodies/page.html"
        bench "Board page (HTML)" "/stops/SLBB"
        page_rps=$BENCH_RPS
    else
        echo
        echo "== Board page (HTML): GET /stops/SLBB answered $page_code: skipped (the pages are not in this build)"
    fi
    stop_server
    # The floor, body for body, on the same cores right after.
    start_bare "$bodies/departures.json" application/json
    bench "Floor: bare Hummingbird route, the departures body" "/"
    local floor_rps=$BENCH_RPS
    stop_server
    local page_floor_rps=
    if [[ -n $page_rps ]]; then
        start_bare "$bodies/page.html" "text/html; charset=utf-8"
        bench "Floor: bare Hummingbird route, the board page's body" "/"
        page_floor_rps=$BENCH_RPS
        stop_server
    fi
    rm -rf "$bodies"
    echo
    echo "load average after: $(loadavg)"
    local share
    share=$(awk -v a="$board_rps" -v b="$floor_rps" 'BEGIN { printf "%.2f", a / b }')
    if awk -v s="$share" -v p="$board_p99" 'BEGIN { exit !(s >= 0.90 && p <= 10) }'; then
        echo "target (departures): >= 0.90 of the floor with p99 <= 10 ms: MET ($board_rps against $floor_rps req/s = $share, p99 $board_p99 ms)"
    else
        echo "target (departures): >= 0.90 of the floor with p99 <= 10 ms: NOT MET ($board_rps against $floor_rps req/s = $share, p99 $board_p99 ms)"
    fi
    if [[ -n $page_rps ]]; then
        local verdict="NOT MET"
        awk -v r="$page_rps" 'BEGIN { exit !(r >= 10000) }' && verdict=MET
        echo "target (board page): >= 10000 req/s: $verdict ($page_rps req/s; its floor $page_floor_rps req/s = $(awk -v a="$page_rps" -v b="$page_floor_rps" 'BEGIN { printf "%.2f", a / b }'))"
    fi
}

# The bare floor (`onward-load bare`) on $PORT, serving one file's bytes; stopped with stop_server.
start_bare() {
    [[ -x $LOAD_BIN ]] || die "no release build at $LOAD_BIN (swift build -c release --scratch-path $BUILD --product onward-load)"
    "$LOAD_BIN" bare --port "$PORT" --body "$1" --content-type "$2" >"$SERVER_LOG" 2>&1 &
    SERVER_PID=$!
    local i
    for i in $(seq 1 100); do
        kill -0 "$SERVER_PID" 2>/dev/null || { cat "$SERVER_LOG" >&2; die "the bare server exited before it answered"; }
        if curl -fsS -o /dev/null --max-time 1 "$BASE/" 2>/dev/null; then
            echo
            echo "server:  $LOAD_BIN bare --port $PORT --body $1 ($(wc -c <"$1") bytes) (pid $SERVER_PID)"
            return
        fi
        sleep 0.1
    done
    die "the bare server did not answer within 10 s"
}

journey_figures() {
    command -v wrk >/dev/null || die "wrk is not installed"
    local feed=${HALIFAX_FEED:-../shared/data/gtfs/halifax-transit-2025-08.zip} connections
    [[ -f $feed ]] || die "no feed at $feed (set HALIFAX_FEED)"
    local stops
    stops=$(mktemp /tmp/onward-journey-stops.XXXXXX)
    # The stops some trip calls at, from stop_times.txt's stop_id column.
    unzip -p "$feed" stop_times.txt | tr -d '\r' | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "stop_id") c = i; next } { print $c }' \
        | tr -d ' ' | sort -u >"$stops"
    echo "# onward serve: planJourney between random pairs (wrk, Benchmarks/journeys.lua)"
    machine
    echo "feed:    $feed ($(wc -l <"$stops") served stops), date ${JOURNEY_DATE:-2025-11-06}"
    SERVE_ARGS=(--feed "$feed")
    start_server
    export STOPS=$stops JOURNEY_DATE=${JOURNEY_DATE:-2025-11-06}
    local sample
    sample="/api/v1/journeys?from=$(sed -n 1p "$stops")&to=$(sed -n 2p "$stops")&date=$JOURNEY_DATE&time=08:00"
    for connections in ${JOURNEY_CONNECTIONS:-2 16}; do
        CONNECTIONS=$connections SCRIPT=Benchmarks/journeys.lua bench "planJourney, random pairs, $connections connections" "$sample"
        if awk -v r="$BENCH_RPS" -v p="$BENCH_P99" 'BEGIN { exit !(r >= 1000 && p <= 50) }'; then
            echo "   target (>= 1000 req/s with p99 <= 50 ms): MET"
        else
            echo "   target (>= 1000 req/s with p99 <= 50 ms): NOT MET"
        fi
    done
    echo
    echo "load average after: $(loadavg)"
    stop_server
    rm -f "$stops"
}

people_figures() {
    command -v wrk >/dev/null || die "wrk is not installed"
    echo "# onward serve: listSavedRoutes for one signed-in person with 5 saved routes (wrk, bearer token)"
    machine
    SERVE_ARGS=()
    start_server
    local token i
    token=$(curl -fsS -H 'Content-Type: application/json' -d '{"username": "bench", "password": "a long benchmark password"}' \
        "$BASE/api/v1/accounts" | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
    for i in 0 1 2 3 4; do
        curl -fsS -o /dev/null -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
            -d "{\"version\": $i, \"route\": {\"kind\": \"board\", \"stopId\": \"SLBB\", \"name\": \"Route $i\"}}" "$BASE/api/v1/me/routes"
    done
    HEADER="Authorization: Bearer $token" bench "listSavedRoutes" "/api/v1/me/routes"
    echo
    echo "load average after: $(loadavg)"
    stop_server
}

live_figures() {
    [[ -x $LOAD_BIN ]] || die "no release build at $LOAD_BIN (swift build -c release --scratch-path $BUILD --product onward-load)"
    # Each subscriber is two sockets in onward-load (its client end and the server's end).
    ulimit -n 8192 2>/dev/null || ulimit -n "$(ulimit -Hn)"
    echo "# onward serve: live updates to WebSocket subscribers (onward-load), $LIVE_RUNS runs, open-file limit $(ulimit -n)"
    machine
    local run out p99s=() p50s=()
    for run in $(seq 1 "$LIVE_RUNS"); do
        echo
        echo "== run $run: $LOAD_BIN $* (load average $(loadavg))"
        out=$("$LOAD_BIN" "$@")
        echo "$out"
        p50s+=("$(sed -n 's/^overall:.* p50 \([0-9.]*\) ms.*/\1/p' <<<"$out")")
        p99s+=("$(sed -n 's/^overall:.* p99 \([0-9.]*\) ms.*/\1/p' <<<"$out")")
        sleep 2
    done
    echo
    echo "live: median of $LIVE_RUNS runs: p50 $(printf '%s\n' "${p50s[@]}" | median) ms, p99 $(printf '%s\n' "${p99s[@]}" | median) ms" \
         "(runs: p99 ${p99s[*]}); load average after: $(loadavg)"
}

case $MODE in
    http) http_figures ;;
    live) live_figures "$@" ;;
    journeys) journey_figures ;;
    people) people_figures ;;
    all) http_figures; echo; live_figures "$@" ;;
    *) die "unknown mode '$MODE': http, live, journeys, people or all" ;;
esac
