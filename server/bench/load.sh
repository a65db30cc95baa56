#!/usr/bin/env bash
# Load test of the REST layer on loopback with wrk (apt-get install -y wrk).
# Starts RestLoadBenchmark (in-memory index of real BIP 158 vector filters + synthetic blocks),
# runs single-filter, 1000-filter-range and Core-compatible scenarios at 1, 16 and 64
# connections, samples the server's RSS, then measures BIP 37 CPU per scanned block against
# the CPU of serving one precomputed filter, and finally holds 64 connections on single filters
# for SUSTAIN seconds (default 60) sampling RSS every 10 s.
# Usage: server/bench/load.sh [seconds per run] [SUSTAIN seconds]
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION="${1:-10}"
SUSTAIN="${2:-60}"
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install -y wrk)" >&2; exit 1; }
WORK="$(mktemp -d)"
trap 'exec 3>&- 2>/dev/null || true; [ -n "${PID:-}" ] && kill "$PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT

# One reactor run, so the filters module resolves to its target/classes (we never mvn install).
./mvnw -B -q -pl server -am test-compile dependency:build-classpath -Dmdep.outputFile="$WORK/cp.txt" -DincludeScope=test
CP="server/target/test-classes:server/target/classes:$(cat "$WORK/cp.txt")"

mkfifo "$WORK/in"
java -Xmx512m -XX:+UseParallelGC -cp "$CP" \
  org.blockfilter.server.http.RestLoadBenchmark 10000 20 2000 <"$WORK/in" >"$WORK/server.out" 2>"$WORK/server.err" &
PID=$!
exec 3>"$WORK/in"
for _ in $(seq 1 120); do grep -q READY "$WORK/server.out" 2>/dev/null && break; sleep 1; done
grep -q READY "$WORK/server.out" || { cat "$WORK/server.err" >&2; exit 1; }
val() { awk -v k="$1" '$1 == k { print $2 }' "$WORK/server.out"; }
BASE="$(val BASE)"
rss() { awk '/VmRSS/ { print $2 / 1024 " MiB" }' "/proc/$PID/status"; }

echo "machine: $(nproc) cores, $(date -u +%FT%TZ), wrk and server on the same machine"
ticks() { awk '{ print $14 + $15 }' "/proc/$PID/stat"; }
HZ="$(getconf CLK_TCK)"
printf '%-42s %5s %10s %9s %9s %14s\n' scenario conns req/s p50 p99 "server cpu/req"

run() { # name, connections, url, extra wrk args...
  local name="$1" c="$2" url="$3"; shift 3
  local t=$(( c < 2 ? 1 : 2 ))
  local t0 t1
  t0=$(ticks)
  wrk -t"$t" -c"$c" -d"${DURATION}s" --latency "$@" "$url" >"$WORK/wrk.out"
  t1=$(ticks)
  local rps p50 p99 reqs cpu
  rps=$(awk '/Requests\/sec/ { print $2 }' "$WORK/wrk.out")
  p50=$(awk '$1 == "50%" { print $2 }' "$WORK/wrk.out")
  p99=$(awk '$1 == "99%" { print $2 }' "$WORK/wrk.out")
  reqs=$(awk '/requests in/ { print $1 }' "$WORK/wrk.out")
  cpu=$(awk -v d=$((t1 - t0)) -v hz="$HZ" -v n="$reqs" 'BEGIN { printf "%.1f us", d / hz / n * 1e6 }')
  if grep -q "Non-2xx" "$WORK/wrk.out"; then echo "non-2xx answers in $name" >&2; cat "$WORK/wrk.out" >&2; fi
  printf '%-42s %5s %10s %9s %9s %14s\n' "$name" "$c" "$rps" "$p50" "$p99" "$cpu"
}
# warm up the JIT before measuring
wrk -t2 -c16 -d5s -H 'Accept: application/octet-stream' "$BASE/api/v1/filters/$(val FILTER_HASH)" >/dev/null
echo "rss after warm-up: $(rss)"
for c in 1 16 64; do
  run "single filter, binary"            "$c" "$BASE/api/v1/filters/$(val FILTER_HASH)" -H 'Accept: application/octet-stream'
  run "single filter, JSON"              "$c" "$BASE/api/v1/filters/$(val FILTER_HASH)"
  run "1000 filters, binary"             "$c" "$BASE/api/v1/filters?start_height=$(val RANGE_START)&stop_hash=$(val RANGE_STOP)" -H 'Accept: application/octet-stream'
  run "core /rest/blockfilter .bin"      "$c" "$BASE/rest/blockfilter/basic/$(val FILTER_HASH).bin"
  run "core /rest/blockfilterheaders x2000 .json" "$c" "$BASE/rest/blockfilterheaders/basic/$(val HEADERS_FROM).json?count=2000"
done
echo "rss after the runs: $(rss)"

# BIP 37 versus precomputed filters: server CPU per scanned block vs per filter served.
FILTER="$(python3 -c "import sys; sys.stdout.write('23' + '00'*35 + '13000000' + '00000000' + '01')")"  # 35-byte, 19-function filter, UPDATE_ALL
SCAN="{\"filter\":\"$FILTER\",\"startHeight\":$(val BIG_FIRST),\"stopHeight\":$(val BIG_LAST)}"
for _ in 1 2 3; do curl -s -o /dev/null -H 'Content-Type: application/json' -d "$SCAN" "$BASE/api/v1/bip37/scan"; done
curl -s -H 'Content-Type: application/json' -d "$SCAN" "$BASE/api/v1/bip37/scan" >"$WORK/scan.json"
curl -s "$BASE/metrics" >"$WORK/metrics.txt"
python3 - "$WORK/scan.json" "$WORK/metrics.txt" <<'PY'
import json, re, sys
scan = json.load(open(sys.argv[1]))
per_block = scan["cpuNanos"] / scan["scannedBlocks"]
cpu = count = 0.0
for line in open(sys.argv[2]):
    if 'route="/api/v1/filters/{hashOrHeight}"' in line and 'status="200"' in line:
        if line.startswith("blockfilter_http_cpu_seconds_total"): cpu += float(line.split()[-1])
        if line.startswith("blockfilter_http_requests_seconds_count"): count += float(line.split()[-1])
per_filter = cpu / count * 1e9
print(f"bip37: {scan['scannedBlocks']} blocks of 2000 txs, {per_block/1e6:.2f} ms CPU per block, {scan['bytes']} payload bytes")
print(f"filters: {count:.0f} single-filter requests, {per_filter/1e3:.1f} us handler CPU per filter")
print(f"ratio: BIP 37 costs {per_block/per_filter:.0f}x the server CPU of serving the block's filter")
PY

# Sustained load: is memory bounded?
echo "sustained: 64 connections on single binary filters for ${SUSTAIN}s, RSS every 10 s"
wrk -t2 -c64 -d"${SUSTAIN}s" -H 'Accept: application/octet-stream' "$BASE/api/v1/filters/$(val FILTER_HASH)" >"$WORK/sustain.out" &
WRK=$!
for _ in $(seq 1 $((SUSTAIN / 10))); do sleep 10; echo "  rss $(rss)"; done
wait "$WRK"
awk '/Requests\/sec/ { print "  " $0 }' "$WORK/sustain.out"
