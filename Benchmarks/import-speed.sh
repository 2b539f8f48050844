#!/usr/bin/env bash
# `onward import` of a synthetic feed of about a million stop_times, as a whole process (release build).
#
#   Benchmarks/import-speed.sh
#
# Makes the feed with `onward-bench synth` (Halifax's feed copied with renamed IDs until it has
# ROWS stop_times or more), zips it, then times RUNS imports of the zip and of the folder with
# /usr/bin/time, and prints each, the medians and rows per second. Build first:
#   swift build -c release --scratch-path .build-release --product onward
#   swift build -c release --scratch-path .build-release --product onward-bench
# Environment: BUILD (.build-release), ROWS (1000000), RUNS (7), WORK (a temporary folder).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-.build-release}
ROWS=${ROWS:-1000000}
RUNS=${RUNS:-7}
WORK=${WORK:-$(mktemp -d /tmp/onward-import-speed.XXXXXX)}
ONWARD=$BUILD/release/onward
BENCH=$BUILD/release/onward-bench
[[ -x $ONWARD && -x $BENCH ]] || { echo "build onward and onward-bench (release) in $BUILD first" >&2; exit 1; }
command -v zip >/dev/null || { echo "zip is needed (apt-get install zip)" >&2; exit 1; }
trap 'rm -rf "$WORK"' EXIT

"$BENCH" synth --rows "$ROWS" --out "$WORK/feed" >"$WORK/synth.txt"
rows=$(awk -F= '$1 == "stop_times" { print $2 }' "$WORK/synth.txt")
(cd "$WORK/feed" && zip -q -r "$WORK/feed.zip" .)
echo "machine: $(nproc) cores, $(uname -sr), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "feed:    $rows stop_times; folder $(du -sh "$WORK/feed" | cut -f1), zip $(du -h "$WORK/feed.zip" | cut -f1)"
for input in "$WORK/feed.zip" "$WORK/feed"; do
    "$ONWARD" import "$input" -o "$WORK/warm.onward" >/dev/null  # a warm-up: the page cache holds the input
    times=()
    for _ in $(seq 1 "$RUNS"); do
        /usr/bin/time -f '%e %U %S' -o "$WORK/time.txt" "$ONWARD" import "$input" -o "$WORK/out.onward" >/dev/null
        read -r wall user sys <"$WORK/time.txt"
        echo "   $(basename "$input"): $wall s (user $user, system $sys)"
        times+=("$wall")
    done
    median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
    echo "== $(basename "$input"): median of $RUNS: $median s = $(awk -v r="$rows" -v t="$median" 'BEGIN { printf "%.2f", r / t / 1e6 }') M rows/s (target >= 2 M rows/s)"
done
