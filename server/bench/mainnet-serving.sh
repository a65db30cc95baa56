#!/usr/bin/env bash
# Serving at mainnet sizes, with nginx as the physical reference, and one process or two on one index.
#
# Builds an on-disk index of BLOCKS blocks whose filters have mainnet's size (7,400 elements,
# ~19 KB on average; MainnetServingBenchmark), exports it with `blockfilter-server export`, then
# serves the same bytes three ways on this machine and drives each with wrk on loopback:
#   ours    a real `blockfilter-server` process (ServerMain, default options) on the index, its
#           node a scripted JSON-RPC stub whose chain is the index (nothing to index);
#   second  a second process, `--read-only-secondary` on the same index;
#   nginx   /usr/sbin/nginx (Debian package) with a generated config on free ports: one server
#           block with gzip off and one with gzip on (gzip_types application/octet-stream,
#           level 6 as ours), sendfile on, open_file_cache, worker_processes = cores.
# nginx serves the export's range files (the same bytes as our /api/v1/filters range answer,
# checked with cmp below) and one file per block with the bytes of /api/v1/filters/<hash>.
# Every wrk run picks a random path per request from the list (Lua), so no single response is
# the test: BLOCKS distinct single filters, every full 1000-block range.
#
# Prints paste-ready tables, the core count and `uptime` before and after. Needs wrk (installed
# with apt-get when missing and allowed), nginx and python3. Takes 7-9 minutes at the defaults
# on a loaded 2-core machine.
# Usage: server/bench/mainnet-serving.sh [seconds per run, default 8] [blocks, default 6000]
# Environment: ONLY=ranges runs only the 1000-filter range rows (~3 minutes). BASE_CP=<classpath>
# (e.g. of a build of main: server/target/test-classes:server/target/classes:<its dependencies>)
# adds a third server, "base", that code on a copy of the index, measured in the same run: the
# range table then has a column for it, and gc/rss are printed for it too. CSV=<file> also writes
# the ours/base/nginx rows as CSV (docs/data/mainnet-serving.csv is one such run).
# Ends with the ratios of the serving goals: one filter at 64 connections, ours/nginx req/s (goal
# >= 0.5), and 1000-filter ranges at 64 connections, ours/nginx MB/s (goal >= 0.8).
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION="${1:-8}"
BLOCKS="${2:-6000}"
HEAP="${HEAP:--XX:+UseParallelGC -Xmx1g}" # JVM options of our servers, space-separated; the heap stays bounded at 1 GiB by default
read -ra HEAP_OPTS <<<"$HEAP"
ONLY="${ONLY:-all}"
BASE_CP="${BASE_CP:-}"
CSV="${CSV:-}"

if ! command -v wrk >/dev/null; then
  echo "wrk is not installed; trying: apt-get install -y wrk" >&2
  if ! { apt-get install -y wrk >/dev/null 2>&1 || sudo -n apt-get install -y wrk >/dev/null 2>&1; } \
     || ! command -v wrk >/dev/null; then
    echo "cannot install wrk (run apt-get install -y wrk as root); nothing measured" >&2
    exit 1
  fi
fi
NGINX="$(command -v nginx || true)"
[ -z "$NGINX" ] && [ -x /usr/sbin/nginx ] && NGINX=/usr/sbin/nginx
[ -n "$NGINX" ] || { echo "nginx is not installed (apt-get install -y nginx); nothing measured" >&2; exit 1; }
command -v python3 >/dev/null || { echo "python3 is needed to pick ports and read index.json" >&2; exit 1; }

WORK="$(mktemp -d)"
PIDS=()
cleanup() {
  exec 3>&- 2>/dev/null || true
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  if [ -n "${KEEP:-}" ]; then echo "kept $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

echo "## mainnet-serving.sh $DURATION s per run, $BLOCKS blocks; $(date -u +%FT%TZ)"
echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM; wrk, servers and nginx on the same machine"
echo "uptime before: $(uptime)"

# One reactor run, so the filters module resolves to its target/classes (we never mvn install).
./mvnw -B -q -pl server -am test-compile dependency:build-classpath -Dmdep.outputFile="$WORK/cp.txt" -DincludeScope=test
CP="server/target/test-classes:server/target/classes:$(cat "$WORK/cp.txt")"
JAVA=(java "${HEAP_OPTS[@]}" -cp "$CP")

# 1. The index, the per-block files, the path lists, the stub node.
mkfifo "$WORK/node.in"
"${JAVA[@]}" org.blockfilter.server.MainnetServingBenchmark "$WORK/index" "$WORK/www" "$WORK/lists" "$BLOCKS" \
  <"$WORK/node.in" >"$WORK/node.out" 2>"$WORK/node.err" &
PIDS+=($!)
exec 3>"$WORK/node.in"
for _ in $(seq 1 600); do grep -q READY "$WORK/node.out" 2>/dev/null && break; sleep 1; done
grep -q READY "$WORK/node.out" || { cat "$WORK/node.out" "$WORK/node.err" >&2; exit 1; }
NODE="$(awk '$1 == "NODE" { print $2 }' "$WORK/node.out")"
head -1 "$WORK/node.out"

# 2. The static export of the same index (the real subcommand), under /x/ on nginx.
t0=$(date +%s.%N)
EXPORT_KIND="the export's range files (blockfilter-server export)"
if "${JAVA[@]}" -XX:ErrorFile="$WORK/hs_err_%p.log" org.blockfilter.server.ServerMain export --data-dir "$WORK/index" \
     --out "$WORK/www/x" --network regtest >"$WORK/export.out" 2>&1; then
  echo "export: $(du -sm "$WORK/www/x" | cut -f1) MB in $(python3 -c "import time; print(f'{time.time() - $t0:.1f}')") s"
  python3 - "$WORK/www/x/index.json" >"$WORK/lists/export-ranges.txt" <<'PY'
import json, sys
ix = json.load(open(sys.argv[1]))
for r in ix["files"]:
    if r["kind"] == "filters" and r["stop"] - r["start"] + 1 == ix["rangeSize"]:
        print("/x/" + r["path"])
PY
else
  # Same defect as --read-only-secondary: export reads the index as a RocksDB secondary.
  echo "DEFECT: export died: $(grep -m1 -o 'SIGSEGV[^,]*' "$WORK/export.out" || tail -1 "$WORK/export.out"); $(grep -A1 'Problematic frame' "$WORK/export.out" | tail -1 | sed 's/^# *//')"
  EXPORT_KIND="range files fetched from our server (export crashed; its files would hold the same bytes)"
  : >"$WORK/lists/export-ranges.txt"
fi

# 3. Our servers: a primary and a read-only secondary, real ServerMain processes, default options.
start_server() { # name, extra args...
  local name="$1"; shift
  local data="$WORK/index"
  if [ "${1:-}" = --data-dir ]; then data="$2"; shift 2; fi
  local java=("${JAVA[@]}")
  [ "$name" = base ] && java=(java "${HEAP_OPTS[@]}" -cp "$BASE_CP")
  "${java[@]}" -Xlog:gc:file="$WORK/$name.gc" -XX:ErrorFile="$WORK/hs_err_%p.log" org.blockfilter.server.ServerMain \
    --node "$NODE" --data-dir "$data" --port 0 --no-p2p "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" &
  local pid=$!
  PIDS+=("$pid")
  for _ in $(seq 1 120); do grep -q "status " "$WORK/$name.out" 2>/dev/null && break; sleep 1; done
  grep -q "status " "$WORK/$name.out" || { cat "$WORK/$name.out" "$WORK/$name.err" >&2; exit 1; }
  eval "${name^^}_PID=$pid"
  eval "${name^^}=$(awk '$1 == "status" { sub("/api/v1/status", "", $2); print $2 }' "$WORK/$name.out")"
}
start_server ours
if [ -n "$BASE_CP" ]; then
  cp -a "$WORK/index" "$WORK/index-base"
  rm -f "$WORK/index-base/LOCK"
  start_server base --data-dir "$WORK/index-base"
  echo "base: $BASE (pid $BASE_PID, java $HEAP, BASE_CP, on a copy of the index)"
fi
start_server second --read-only-secondary --http-compression gzip
SECOND_KIND="--read-only-secondary on the same index"
# RocksDB secondaries cannot read blob files; with filters in blob files (before 3ec52d8) the
# secondary died (SIGSEGV) on its first filter reads (IndexStoreBlobFilesTest). If it dies, the
# two-process figures come from a second primary on a copy of the index, and the output says so.
while read -r path; do
  curl -s -o /dev/null -H 'Accept: application/octet-stream' "$SECOND$path" || true
done <"$WORK/lists/ranges.txt"
sleep 1
if ! kill -0 "$SECOND_PID" 2>/dev/null; then
  echo "DEFECT: the --read-only-secondary process died on its first filter read: $(grep -m1 -o 'SIGSEGV.*\|Problematic frame.*' "$WORK/second.out" || tail -1 "$WORK/second.out")"
  grep -A1 "Problematic frame" "$WORK/second.out" | tail -1 | sed 's/^/  /'
  cp -a "$WORK/index" "$WORK/index2"
  rm -f "$WORK/index2/LOCK"
  start_server second --data-dir "$WORK/index2" --http-compression gzip
  SECOND_KIND="a second primary on a copy of the index (the secondary crashed)"
fi
echo "ours: $OURS (pid $OURS_PID, java $HEAP, max heap $(java "${HEAP_OPTS[@]}" -XX:+PrintFlagsFinal -version 2>/dev/null | awk '$2 == "MaxHeapSize" { printf "%.1f GiB", $4 / 2^30 }'), default --http-compression none); second: $SECOND, $SECOND_KIND, --http-compression gzip (pid $SECOND_PID)"

# 4. nginx: gzip off on one port, gzip on on another; our files, sendfile, open_file_cache.
read -r P_OFF P_GZ < <(python3 -c "
import socket
ss = [socket.socket() for _ in range(2)]
for s in ss: s.bind(('127.0.0.1', 0))
print(*[s.getsockname()[1] for s in ss])")
mkdir -p "$WORK/nginx/logs"
# nginx started as root runs its workers as an unprivileged user: let them read the files.
chmod a+x "$WORK"; chmod -R a+rX "$WORK/www"
cat >"$WORK/nginx/nginx.conf" <<EOF
worker_processes $(nproc);
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on; tcp_nopush on; tcp_nodelay on;
    keepalive_requests 1000000;
    open_file_cache max=20000 inactive=60s; open_file_cache_valid 60s; open_file_cache_errors on;
    client_body_temp_path $WORK/nginx/cb; proxy_temp_path $WORK/nginx/px; fastcgi_temp_path $WORK/nginx/fc;
    uwsgi_temp_path $WORK/nginx/uw; scgi_temp_path $WORK/nginx/sc;
    types { application/json json; application/octet-stream bin; }
    default_type application/octet-stream;
    server {
        listen 127.0.0.1:$P_OFF; root $WORK/www; gzip off;
        location / { add_header Cache-Control "public, max-age=31536000, immutable"; }
    }
    server {
        listen 127.0.0.1:$P_GZ; root $WORK/www;
        gzip on; gzip_comp_level 6; gzip_min_length 1024; gzip_types application/octet-stream application/json;
        location / { add_header Cache-Control "public, max-age=31536000, immutable"; }
    }
}
EOF
"$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -g "daemon off;" >"$WORK/nginx/logs/stdout.log" 2>&1 &
NGINX_PID=$!
PIDS+=("$NGINX_PID")
S0="$(head -1 "$WORK/lists/singles.txt")"
for _ in $(seq 1 50); do curl -s -o /dev/null "http://127.0.0.1:$P_OFF$S0" && break; sleep 0.2; done
curl -sf -o /dev/null "http://127.0.0.1:$P_OFF$S0" || { cat "$WORK/nginx/logs/"* >&2; exit 1; }
NG_OFF="http://127.0.0.1:$P_OFF"
NG_GZ="http://127.0.0.1:$P_GZ"
echo "nginx: $("$NGINX" -v 2>&1 | sed 's/.*: //'), $(nproc) workers, $NG_OFF (gzip off), $NG_GZ (gzip on, level 6)"

if [ ! -s "$WORK/lists/export-ranges.txt" ]; then
  mkdir -p "$WORK/www/r"
  while read -r path; do
    start="${path#*start_height=}"; start="${start%%&*}"
    curl -sf -H 'Accept: application/octet-stream' "$OURS$path" -o "$WORK/www/r/$start.bin"
    echo "/r/$start.bin" >>"$WORK/lists/export-ranges.txt"
  done <"$WORK/lists/ranges.txt"
  chmod -R a+rX "$WORK/www"
fi
echo "nginx serves: per-block filter files written by MainnetServingBenchmark, and $EXPORT_KIND"

# Same bytes?
BIN='Accept: application/octet-stream'
R0_OURS="$(head -1 "$WORK/lists/ranges.txt")"; R0_NG="$(head -1 "$WORK/lists/export-ranges.txt")"; S0="$(head -1 "$WORK/lists/singles.txt")"
curl -sf -H "$BIN" "$OURS$R0_OURS" -o "$WORK/r_ours"; curl -sf "$NG_OFF$R0_NG" -o "$WORK/r_ng"
curl -sf -H "$BIN" "$OURS$S0" -o "$WORK/s_ours"; curl -sf "$NG_OFF$S0" -o "$WORK/s_ng"
curl -sf -H "$BIN" "$SECOND$R0_OURS" -o "$WORK/r_second"
cmp -s "$WORK/r_ours" "$WORK/r_ng" && cmp -s "$WORK/s_ours" "$WORK/s_ng" && cmp -s "$WORK/r_ours" "$WORK/r_second" \
  || { echo "ours, the second process and nginx do not serve the same bytes" >&2; exit 1; }
SINGLE_B=$(stat -c %s "$WORK/s_ours"); RANGE_B=$(stat -c %s "$WORK/r_ours")
framing() { curl -s -D - -o /dev/null -H "$BIN" "$1" | grep -i -E '^(content-length|transfer-encoding):' | tr -d '\r' | tr '\n' ' '; }
echo "range answer framing: ours $(framing "$OURS$R0_OURS")"
if [ -n "$BASE_CP" ]; then
  curl -sf -H "$BIN" "$BASE$R0_OURS" -o "$WORK/r_base"
  cmp -s "$WORK/r_ours" "$WORK/r_base" || { echo "ours and base do not serve the same range bytes" >&2; exit 1; }
  echo "base serves the same range bytes (cmp); framing: base $(framing "$BASE$R0_OURS")"
fi
JSON_B=$(curl -s "$OURS$S0" | wc -c); JSON_GZ_B=$(curl -s -H 'Accept-Encoding: gzip' "$SECOND$S0" | wc -c)
echo "same bytes from ours, the second process and nginx (cmp): one filter ($SINGLE_B B), a 1000-filter range ($RANGE_B B)"
echo "$(wc -l <"$WORK/lists/singles.txt") distinct single filters, $(wc -l <"$WORK/lists/ranges.txt") distinct full ranges; mean filter $(( $(du -sb "$WORK/www/api" | cut -f1) / BLOCKS )) B"
echo "gzip -6: one binary filter $SINGLE_B -> $(gzip -6 -c "$WORK/s_ours" | wc -c) B, a binary range $RANGE_B -> $(gzip -6 -c "$WORK/r_ours" | wc -c) B; our JSON filter $JSON_B -> $JSON_GZ_B B (--http-compression gzip)"

cat >"$WORK/paths.lua" <<'EOF'
local paths = {}
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("id", threads)
end
function init(args)
  for line in io.lines(args[1]) do paths[#paths + 1] = line end
  math.randomseed(os.time() * 100 + id)
end
function request()
  return wrk.format(nil, paths[math.random(#paths)])
end
EOF

ticks() { # user+system CPU ticks of the given processes (all their threads)
  local s=0 p
  for p in "$@"; do s=$(( s + $(awk '{ print $14 + $15 }' "/proc/$p/stat") )); done
  echo "$s"
}
nginx_pids() { echo "$NGINX_PID $(pgrep -P "$NGINX_PID" | tr '\n' ' ')"; }
HZ="$(getconf CLK_TCK)"
mbps() { # wrk's Transfer/sec (MiB, headers included) in MB/s
  awk '/Transfer\/sec/ { v = $2; n = v + 0; if (v ~ /GB/) n *= 1024; else if (v ~ /KB/) n /= 1024; else if (v !~ /MB/) n /= 1048576;
    printf "%.0f", n * 1.048576 }' "$1"; }
field() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "n/a" }'; }
fullgc() { for p in "$@"; do jcmd "$p" GC.run >/dev/null 2>&1 || true; done; }

# One wrk run; sets RPS MBS LAT ("p50 / p99") CPU (servers' CPU per request, us).
# Our servers get a full GC first (jcmd GC.run), so no run pays for the garbage of the previous one.
wrk_run() { # seconds, conns, url-base, list, pids (quoted), extra wrk args...
  local d="$1" c="$2" base="$3" list="$4" pids="$5"; shift 5
  local t=2; [ "$c" -lt 2 ] && t=1
  local t0 t1 out="$WORK/w.out"
  # shellcheck disable=SC2086
  [ "$pids" = "$(nginx_pids)" ] || fullgc $pids
  # shellcheck disable=SC2086
  t0=$(ticks $pids)
  wrk -t"$t" -c"$c" -d"${d}s" --timeout 30s --latency "$@" -s "$WORK/paths.lua" "$base" -- "$WORK/lists/$list" >"$out"
  # shellcheck disable=SC2086
  t1=$(ticks $pids)
  if grep -q "Non-2xx\|Socket errors" "$out"; then echo "  (errors against $base: $(grep "Non-2xx\|Socket errors" "$out" | tr -s ' '))"; fi
  local n; n=$(awk '/requests in/ { print $1 }' "$out")
  RPS=$(field "$out" Requests/sec:); MBS=$(mbps "$out")
  if [ "$n" -gt 0 ]; then LAT="$(field "$out" 50%) / $(field "$out" 99%)"; else LAT="none completed"; fi
  CPU=$(awk -v d=$((t1 - t0)) -v hz="$HZ" -v n="$n" 'BEGIN { if (n > 0) printf "%.0f us", d / hz / n * 1e6; else printf "n/a" }')
}

RD=$(( DURATION * 2 )) # ranges: one answer takes 10-1000 ms, so twice as long per run
# Warm-up: JIT of our servers, page cache for everything.
if [ "$ONLY" != ranges ]; then
wrk -t2 -c16 -d15s -H "$BIN" -s "$WORK/paths.lua" "$OURS" -- "$WORK/lists/singles.txt" >/dev/null
wrk -t2 -c16 -d15s -H "$BIN" -s "$WORK/paths.lua" "$SECOND" -- "$WORK/lists/singles.txt" >/dev/null
wrk -t2 -c16 -d5s -H 'Accept-Encoding: gzip' -s "$WORK/paths.lua" "$SECOND" -- "$WORK/lists/singles.txt" >/dev/null
fi
if [ -n "$BASE_CP" ]; then # the base server is warmed as ours is: its JIT, on the requests it is measured on
  [ "$ONLY" != ranges ] && wrk -t2 -c16 -d15s -H "$BIN" -s "$WORK/paths.lua" "$BASE" -- "$WORK/lists/singles.txt" >/dev/null
  wrk -t1 -c2 -d5s -H "$BIN" -s "$WORK/paths.lua" "$BASE" -- "$WORK/lists/ranges.txt" >/dev/null
fi
wrk -t1 -c2 -d5s -H "$BIN" -s "$WORK/paths.lua" "$OURS" -- "$WORK/lists/ranges.txt" >/dev/null
wrk -t1 -c2 -d3s -H "$BIN" -s "$WORK/paths.lua" "$SECOND" -- "$WORK/lists/ranges.txt" >/dev/null
wrk -t2 -c16 -d3s -s "$WORK/paths.lua" "$NG_OFF" -- "$WORK/lists/singles.txt" >/dev/null
wrk -t1 -c2 -d3s -s "$WORK/paths.lua" "$NG_OFF" -- "$WORK/lists/export-ranges.txt" >/dev/null

versus() { # title, seconds, our list, nginx list
  echo
  echo "### $1: ours against nginx, the same bytes, binary, no Accept-Encoding ($2 s per run)"
  echo
  echo "| conns | ours req/s | nginx req/s | ours/nginx | ours MB/s | nginx MB/s | ours p50 / p99 | nginx p50 / p99 | ours CPU/req | nginx CPU/req |"
  echo "| ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: |"
  for c in 1 16 64; do
    wrk_run "$2" "$c" "$OURS" "$3" "$OURS_PID" -H "$BIN"
    local r1=$RPS m1=$MBS l1=$LAT c1=$CPU
    wrk_run "$2" "$c" "$NG_OFF" "$4" "$(nginx_pids)"
    echo "| $c | $r1 | $RPS | $(ratio "$r1" "$RPS") | $m1 | $MBS | $l1 | $LAT | $c1 | $CPU |"
    row "$1" "$c" "$r1" "" "$RPS" "$m1" "" "$MBS" "$c1" "" "$CPU"
  done
}
# One CSV row and the 64-connection ratios: title, conns, req/s ours base nginx, MB/s ours base nginx, CPU/req ours base nginx.
row() {
  echo "\"$1\",$2,$3,$4,$5,$6,$7,$8,${9% us},${10% us},${11% us},$(cut -d' ' -f1 /proc/loadavg)" >>"$WORK/rows.csv"
  if [ "$2" = 64 ]; then
    case "$1" in
      One*) GOAL_SINGLE="$(ratio "$3" "$5")"; if [ -n "$4" ]; then GOAL_SINGLE_BASE="$(ratio "$4" "$5")"; fi ;;
      1000*) GOAL_RANGE="$(ratio "$6" "$8")"; if [ -n "$7" ]; then GOAL_RANGE_BASE="$(ratio "$7" "$8")"; fi ;;
    esac
  fi
}
GOAL_SINGLE=n/a GOAL_RANGE=n/a GOAL_SINGLE_BASE="" GOAL_RANGE_BASE=""
echo "table,conns,ours_rps,base_rps,nginx_rps,ours_MBps,base_MBps,nginx_MBps,ours_cpu_us,base_cpu_us,nginx_cpu_us,load1" >"$WORK/rows.csv"
# The same with a column for the base server (BASE_CP), measured between ours and nginx.
versus_base() { # title, seconds, our list, nginx list
  echo
  echo "### $1: ours, base (BASE_CP) and nginx, the same bytes, binary, no Accept-Encoding ($2 s per run)"
  echo
  echo "| conns | ours req/s | base req/s | nginx req/s | ours/nginx | base/nginx | ours MB/s | base MB/s | ours p50 / p99 | base p50 / p99 | ours CPU/req | base CPU/req |"
  echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: |"
  for c in 1 16 64; do
    wrk_run "$2" "$c" "$OURS" "$3" "$OURS_PID" -H "$BIN"
    local r1=$RPS m1=$MBS l1=$LAT c1=$CPU
    wrk_run "$2" "$c" "$BASE" "$3" "$BASE_PID" -H "$BIN"
    local r2=$RPS m2=$MBS l2=$LAT c2=$CPU
    wrk_run "$2" "$c" "$NG_OFF" "$4" "$(nginx_pids)"
    echo "| $c | $r1 | $r2 | $RPS | $(ratio "$r1" "$RPS") | $(ratio "$r2" "$RPS") | $m1 | $m2 | $l1 | $l2 | $c1 | $c2 |"
    row "$1" "$c" "$r1" "$r2" "$RPS" "$m1" "$m2" "$MBS" "$c1" "$c2" "$CPU"
  done
}
if [ "$ONLY" != ranges ] && [ -n "$BASE_CP" ]; then
  versus_base "One filter (~19 KB)" "$DURATION" singles.txt singles.txt
elif [ "$ONLY" != ranges ]; then
  versus "One filter (~19 KB)" "$DURATION" singles.txt singles.txt
fi
if [ -n "$BASE_CP" ]; then
  versus_base "1000-filter range (~19.6 MB)" "$RD" ranges.txt export-ranges.txt
else
  versus "1000-filter range (~19.6 MB)" "$RD" ranges.txt export-ranges.txt
fi

echo
echo "### gzip: --http-compression none and gzip"
echo
echo "\"none\" is ours (default --http-compression none), \"gzip\" the second process (--http-compression gzip:"
echo "JSON and hex compressed, binary never), both with the client sending Accept-Encoding: gzip; nginx gzip"
echo "on compresses the .bin files too (gzip_types application/octet-stream, level 6, as ours)."
echo
echo "| scenario | conns | server | req/s | MB/s on the wire | p50 / p99 | server CPU/req |"
echo "| --- | ---: | --- | ---: | ---: | --- | ---: |"
GZ='Accept-Encoding: gzip'
gzrow() { echo "| $1 | $2 | $3 | $RPS | $MBS | $LAT | $CPU |"; }
J0=n/a J1=n/a JC0=n/a JC1=n/a
if [ "$ONLY" != ranges ]; then
wrk_run "$DURATION" 64 "$SECOND" singles.txt "$SECOND_PID" -H "$BIN" -H "$GZ"; gzrow "one filter, binary" 64 "ours, gzip"
wrk_run "$DURATION" 64 "$NG_GZ" singles.txt "$(nginx_pids)" -H "$GZ"; gzrow "one filter, binary" 64 "nginx, gzip on"
wrk_run "$DURATION" 64 "$OURS" singles.txt "$OURS_PID" -H "$GZ"; gzrow "one filter, JSON (hex)" 64 "ours, none"; J0=$RPS; JC0=$CPU
wrk_run "$DURATION" 64 "$SECOND" singles.txt "$SECOND_PID" -H "$GZ"; gzrow "one filter, JSON (hex)" 64 "ours, gzip"; J1=$RPS; JC1=$CPU
fi
wrk_run "$RD" 1 "$SECOND" ranges.txt "$SECOND_PID" -H "$BIN" -H "$GZ"; gzrow "1000-filter range, binary" 1 "ours, gzip"
wrk_run "$RD" 1 "$NG_GZ" export-ranges.txt "$(nginx_pids)" -H "$GZ"; gzrow "1000-filter range, binary" 1 "nginx, gzip on"
wrk_run "$RD" 1 "$OURS" ranges.txt "$OURS_PID" -H "$GZ"; gzrow "1000-filter range, JSON (hex)" 1 "ours, none"; JR0=$RPS; JRC0=$CPU
wrk_run "$RD" 1 "$SECOND" ranges.txt "$SECOND_PID" -H "$GZ"; gzrow "1000-filter range, JSON (hex)" 1 "ours, gzip"; JR1=$RPS; JRC1=$CPU
if [ -n "$BASE_CP" ]; then
  wrk_run "$RD" 1 "$BASE" ranges.txt "$BASE_PID" -H "$GZ"; gzrow "1000-filter range, JSON (hex)" 1 "base, none"
fi
echo
[ "$ONLY" = ranges ] && echo "JSON with gzip / without: req/s x$(ratio "$JR1" "$JR0"), CPU/req $JRC1 vs $JRC0 (1000-filter range, 1 connection)"
[ "$ONLY" != ranges ] && echo "JSON with gzip / without: req/s x$(ratio "$J1" "$J0"), CPU/req $JC1 vs $JC0 (one filter, 64 connections); req/s x$(ratio "$JR1" "$JR0"), CPU/req $JRC1 vs $JRC0 (1000-filter range, 1 connection)"

echo
echo "### One process or two on one index (binary, 64 connections in all)"
echo
echo "second process: $SECOND_KIND. Two processes: one wrk -t1 -c32 against each, at the same time,"
echo "req/s and MB/s summed, p50 / p99 of each; one process: wrk -t2 -c64 against ours alone, just before."
echo
echo "| scenario | 1 process req/s | 2 processes req/s | 2 vs 1 | 1 process MB/s | 2 processes MB/s | 1 process p50 / p99 | 2 processes p50 / p99 (each) | CPU/req 1 / 2 |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: |"
SCENS="single range"; [ "$ONLY" = ranges ] && SCENS=range
for scen in $SCENS; do
  if [ $scen = single ]; then list=singles.txt; label="one filter"; d=$DURATION; else list=ranges.txt; label="1000-filter range"; d=$RD; fi
  wrk_run "$d" 64 "$OURS" "$list" "$OURS_PID" -H "$BIN"
  r1=$RPS m1=$MBS l1=$LAT c1=$CPU
  fullgc "$OURS_PID" "$SECOND_PID"
  t0=$(ticks "$OURS_PID" "$SECOND_PID")
  wrk -t1 -c32 -d"${d}s" --timeout 30s --latency -H "$BIN" -s "$WORK/paths.lua" "$OURS" -- "$WORK/lists/$list" >"$WORK/a.out" &
  WA=$!
  wrk -t1 -c32 -d"${d}s" --timeout 30s --latency -H "$BIN" -s "$WORK/paths.lua" "$SECOND" -- "$WORK/lists/$list" >"$WORK/b.out"
  wait "$WA"
  t1=$(ticks "$OURS_PID" "$SECOND_PID")
  n=$(( $(awk '/requests in/ { print $1 }' "$WORK/a.out") + $(awk '/requests in/ { print $1 }' "$WORK/b.out") ))
  r2=$(awk -v a="$(field "$WORK/a.out" Requests/sec:)" -v b="$(field "$WORK/b.out" Requests/sec:)" 'BEGIN { printf "%.2f", a + b }')
  c2=$(awk -v d=$((t1 - t0)) -v hz="$HZ" -v n="$n" 'BEGIN { if (n > 0) printf "%.0f us", d / hz / n * 1e6; else printf "n/a" }')
  lat() { if [ "$(awk '/requests in/ { print $1 }' "$1")" -gt 0 ]; then echo "$(field "$1" 50%) / $(field "$1" 99%)"; else echo "none completed"; fi; }
  echo "| $label | $r1 | $r2 | $(ratio "$r2" "$r1") | $m1 | $(( $(mbps "$WORK/a.out") + $(mbps "$WORK/b.out") )) | $l1 | $(lat "$WORK/a.out") ; $(lat "$WORK/b.out") | $c1 / $c2 |"
done

gcsum() { awk '/Pause/ { v = $NF; sub("ms", "", v); t += v; n++ } END { printf "%d pauses, %.1f s in all", n, t / 1000 }' "$1"; }
echo
echo "gc (whole run, incl. the forced full GCs): ours $(gcsum "$WORK/ours.gc"), second $(gcsum "$WORK/second.gc")"
if [ -n "$BASE_CP" ]; then
  echo "base (BASE_CP): gc $(gcsum "$WORK/base.gc"); rss at the end $(awk '/VmRSS/ { printf "%.0f MiB", $2 / 1024 }' "/proc/$BASE_PID/status"), peak $(awk '/VmHWM/ { printf "%.0f MiB", $2 / 1024 }' "/proc/$BASE_PID/status")"
fi
echo "peak rss: ours $(awk '/VmHWM/ { printf "%.0f MiB", $2 / 1024 }' "/proc/$OURS_PID/status"), second $(awk '/VmHWM/ { printf "%.0f MiB", $2 / 1024 }' "/proc/$SECOND_PID/status")"
echo "rss at the end: ours $(awk '/VmRSS/ { printf "%.0f MiB", $2 / 1024 }' "/proc/$OURS_PID/status"), second $(awk '/VmRSS/ { printf "%.0f MiB", $2 / 1024 }' "/proc/$SECOND_PID/status")"
echo "uptime after: $(uptime)"
echo
echo "goals (64 connections, same run): one filter ours/nginx req/s $GOAL_SINGLE (>= 0.5)${GOAL_SINGLE_BASE:+, base/nginx $GOAL_SINGLE_BASE}; 1000-filter range ours/nginx MB/s $GOAL_RANGE (>= 0.8)${GOAL_RANGE_BASE:+, base/nginx $GOAL_RANGE_BASE}"
if [ -n "$CSV" ]; then cp "$WORK/rows.csv" "$CSV"; echo "rows written to $CSV"; fi
