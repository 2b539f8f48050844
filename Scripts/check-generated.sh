#!/usr/bin/env bash
# Generated files are current: the GTFS-Realtime Swift code is what protoc and protoc-gen-swift
# make of the committed .proto (Sources/GTFSRealtime/Generated/README.md). It regenerates into a
# temporary folder and fails, with a short diff, when that differs from the committed file.
# `--write` writes the regenerated file in place instead (after editing the .proto or updating
# swift-protobuf).
#
# protoc-gen-swift is built from the swift-protobuf the package resolves, in the package's own
# debug build (.build), where `swift build --build-tests` has already built SwiftProtobuf: that adds
# only the plugin's two modules. protoc comes from the system; when it is missing it is installed
# (Debian's protobuf-compiler) if this runs as root with apt-get, and otherwise the check is skipped
# with a message, unless ONWARD_REQUIRE_BROWSER=1 (as in CI), when that is a failure.
set -euo pipefail
cd "$(dirname "$0")/.."

folder=Sources/GTFSRealtime/Generated
proto=gtfs-realtime.proto
generated=$folder/gtfs-realtime.pb.swift

write=0
case "${1:-}" in
  "") ;;
  --write) write=1 ;;
  *) echo "usage: $0 [--write]" >&2; exit 2 ;;
esac

# `unavailable WHY`: a missing tool skips the check (exit ONWARD_SKIP_STATUS, 0 when run alone),
# or fails it when ONWARD_REQUIRE_BROWSER=1.
unavailable() {
  if [ "${ONWARD_REQUIRE_BROWSER:-}" = "1" ]; then
    echo "The generated-code check cannot run: $1" >&2
    exit 1
  fi
  echo "The generated-code check skipped: $1" >&2
  exit "${ONWARD_SKIP_STATUS:-0}"
}

if ! command -v protoc >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing protoc (apt-get install protobuf-compiler)" >&2
    log=$(mktemp)
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq protobuf-compiler; } >"$log" 2>&1; then
      tail -n 20 "$log" >&2
    fi
    rm -f "$log"
  fi
  command -v protoc >/dev/null ||
    unavailable "protoc is not installed (apt-get install protobuf-compiler, or brew install protobuf)"
fi

# The plugin, from the swift-protobuf the package resolves, built like its other debug products.
if ! build_log=$(swift build --product protoc-gen-swift 2>&1); then
  echo "$build_log" >&2
  echo "The generated-code check failed: protoc-gen-swift did not build" >&2
  exit 1
fi
plugin="$(swift build --show-bin-path)/protoc-gen-swift"
version=$("$plugin" --version)

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The regeneration command (the same in Sources/GTFSRealtime/Generated/README.md).
protoc --plugin=protoc-gen-swift="$plugin" --swift_out="$out" --swift_opt=Visibility=Public -I "$folder" "$proto"

if [ "$write" = 1 ]; then
  cp "$out/gtfs-realtime.pb.swift" "$generated"
  echo "Wrote $generated ($version, $(protoc --version))"
  exit 0
fi
if ! cmp -s "$out/gtfs-realtime.pb.swift" "$generated"; then
  echo "$generated is stale: it is not what $version and $(protoc --version) make of $folder/$proto." >&2
  echo "Regenerate it with Scripts/check-generated.sh --write (the difference, committed → regenerated):" >&2
  diff -u --label "$generated (committed)" --label "$generated (regenerated)" "$generated" "$out/gtfs-realtime.pb.swift" |
    head -n 40 >&2 || true
  exit 1
fi
echo "$generated is current ($version, $(protoc --version))"
