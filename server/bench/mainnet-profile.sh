#!/usr/bin/env bash
# Indexes the mainnet-profile chain (docs/mainnet-profile.md) with today's server and with the
# code at a baseline tag, one after the other against the same JSON-RPC node, and prints a
# paste-ready report: per phase (ramp to the UTXO target, then steady mainnet-like blocks)
# wall time, blocks/s, tx/s, inputs/s, outputs/s, peak RSS, heap, disk bytes per block and per
# UTXO (du after each run, and by column family at the tip), CPU split if the server logs one,
# and the new/baseline ratios. Each server runs with
# -Xmx1g and --exit-when-synced on a fresh data dir; the node reports the ramp's last block as
# its tip for the first run and the chain's tip for the second, so each phase is its own run.
#
#   server/bench/mainnet-profile.sh [--utxo-target N] [--steady-blocks N] [--tx-per-block N]
#                                   [--only new|baseline|both] [--baseline-ref REF] [--new-ref REF] [--keep]
#
# Defaults: the full profile (10,000,000 UTXOs, 250 steady blocks of ~3,000 transactions),
# both jars, baseline REF = baseline-ingest, "new" = the working tree (--new-ref builds a
# commit or branch instead, in a temporary worktree like the baseline). Work files: target/mainnet-profile-bench/ (the chain cache
# is target/mainnet-profile/, reused across runs). Needs bash, git, curl, GNU time, du.
set -euo pipefail

UTXO_TARGET=10000000
STEADY_BLOCKS=250
TX_PER_BLOCK=3000
ONLY=both
BASELINE_REF=baseline-ingest
NEW_REF=
KEEP=false
while [ $# -gt 0 ]; do
  case "$1" in
    --utxo-target) UTXO_TARGET=$2; shift 2 ;;
    --steady-blocks) STEADY_BLOCKS=$2; shift 2 ;;
    --tx-per-block) TX_PER_BLOCK=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    --baseline-ref) BASELINE_REF=$2; shift 2 ;;
    --new-ref) NEW_REF=$2; shift 2 ;;
    --keep) KEEP=true; shift ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "mainnet-profile.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
case "$ONLY" in new|baseline|both) ;; *) echo "--only must be new, baseline or both" >&2; exit 2 ;; esac
[ -x /usr/bin/time ] || { echo "mainnet-profile.sh: needs GNU time (/usr/bin/time; apt-get install time)" >&2; exit 2; }

ROOT=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
cd "$ROOT"
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUT=$ROOT/target/mainnet-profile-bench/$STAMP
mkdir -p "$OUT"
NODE_PID=
SRC=$ROOT/target/mainnet-profile-bench/src-$STAMP
cleanup() {
  if [ -n "$NODE_PID" ] && kill -0 "$NODE_PID" 2>/dev/null; then kill "$NODE_PID"; wait "$NODE_PID" 2>/dev/null || true; fi
  if [ -d "$SRC" ]; then git worktree remove --force "$SRC" >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT

log() { echo "[$(date -u +%H:%M:%S)] $*" >&2; }

UPTIME_BEFORE=$(uptime)
log "uptime before: $UPTIME_BEFORE"

# build_ref VARIANT REF: the server at REF, built in a temporary worktree, copied to $OUT/VARIANT
build_ref() {
  log "building $1 ($2 = $(git rev-parse --short "$2")) in $SRC"
  git worktree add --detach "$SRC" "$2" >/dev/null 2>&1
  (cd "$SRC" && ./mvnw -B -q -DskipTests package -pl server -am)
  mkdir -p "$OUT/$1"
  cp -r "$SRC/server/target/blockfilter-server.jar" "$SRC/server/target/lib" "$OUT/$1/"
  git worktree remove --force "$SRC"
}

# (i) today's code (and the profile generator and node, always from the working tree)
log "building the mainnet profile$([ -z "$NEW_REF" ] && echo " and the server") at $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo '+dirty')"
if [ -z "$NEW_REF" ]; then
  ./mvnw -B -q -DskipTests package -pl server,regtest/mainnet-profile -am
  mkdir -p "$OUT/new"
  cp -r server/target/blockfilter-server.jar server/target/lib "$OUT/new/"
  NEW_DESC="working tree at $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo '+dirty')"
else
  ./mvnw -B -q -DskipTests package -pl regtest/mainnet-profile -am
  NEW_DESC="$NEW_REF = $(git rev-parse --short "$NEW_REF")"
fi
mkdir -p "$OUT/profile"
cp -r regtest/mainnet-profile/target/blockfilter-mainnet-profile.jar regtest/mainnet-profile/target/lib "$OUT/profile/"
if [ -n "$NEW_REF" ] && [ "$ONLY" != baseline ]; then
  build_ref new "$NEW_REF"
fi

# (ii) the baseline, built the same way in a temporary worktree
if [ "$ONLY" != new ]; then
  build_ref baseline "$BASELINE_REF"
fi
BASE_DESC="$BASELINE_REF = $(git rev-parse --short "$BASELINE_REF")"

# (iii) the chain, generated once per profile and reused
PROFILE_ARGS=(--cache-dir "$ROOT/target/mainnet-profile" --utxo-target "$UTXO_TARGET" --steady-blocks "$STEADY_BLOCKS" --tx-per-block "$TX_PER_BLOCK")
log "generating (or reusing) the chain: ${PROFILE_ARGS[*]}"
java -Xmx2g -jar "$OUT/profile/blockfilter-mainnet-profile.jar" "${PROFILE_ARGS[@]}" --generate-only 2>/dev/null | tee "$OUT/chain.txt" >&2
meta() { sed -n "s/^  $1=//p" "$OUT/chain.txt"; }
RAMP_END=$(meta ramp_end_height)
TIP=$(meta tip_height)

java -Xmx512m -jar "$OUT/profile/blockfilter-mainnet-profile.jar" "${PROFILE_ARGS[@]}" \
  --port-file "$OUT/node.port" --served-height "$RAMP_END" >"$OUT/node.log" 2>&1 &
NODE_PID=$!
for _ in $(seq 1 600); do [ -s "$OUT/node.port" ] && break; kill -0 "$NODE_PID" || { cat "$OUT/node.log" >&2; exit 1; }; sleep 0.2; done
PORT=$(cat "$OUT/node.port")
NODE=http://mp:mp@127.0.0.1:$PORT
log "node serving on 127.0.0.1:$PORT (ramp ends at height $RAMP_END, tip $TIP)"
served() {
  curl -sf --user mp:mp -H 'Content-Type: application/json' \
    -d "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"setservedheight\",\"params\":[$1]}" "http://127.0.0.1:$PORT/" >/dev/null
}

# (iv) one server run per phase: run VARIANT PHASE HEIGHT
run() {
  local variant=$1 phase=$2 height=$3 dir=$OUT/$1
  served "$height"
  log "$variant/$phase: indexing to height $height"
  /usr/bin/time -f "%e %U %S %M" -o "$dir/$phase.time" \
    java -Xmx1g "-Xlog:gc:file=$dir/$phase.gc.log" -jar "$dir/blockfilter-server.jar" \
    --node "$NODE" --data-dir "$dir/data" --exit-when-synced >"$dir/$phase.log" 2>&1 &
  local pid=$! last=0
  while kill -0 "$pid" 2>/dev/null; do
    sleep 2
    if [ $((SECONDS - last)) -ge 20 ]; then
      last=$SECONDS
      local java_pid rss line
      java_pid=$(pgrep -P "$pid" | head -1 || true)
      rss=$( [ -n "$java_pid" ] && awk '/VmRSS/ {print int($2/1024) " MB"}' "/proc/$java_pid/status" 2>/dev/null || echo "?")
      line=$(grep -o 'event=progress.*' "$dir/$phase.log" | tail -1 || true)
      log "$variant/$phase: rss=$rss ${line:-starting}"
    fi
  done
  if ! wait "$pid"; then
    log "$variant/$phase: the server failed; last lines of $dir/$phase.log:"
    tail -20 "$dir/$phase.log" >&2
    exit 1
  fi
  du -sb "$dir/data" | cut -f1 >"$dir/$phase.disk"
}

VARIANTS=()
[ "$ONLY" != new ] && VARIANTS+=(baseline)
[ "$ONLY" != baseline ] && VARIANTS+=(new)
for v in "${VARIANTS[@]}"; do
  rm -rf "$OUT/$v/data"
  run "$v" ramp "$RAMP_END"
  run "$v" steady "$TIP"
  # Settled sizes by column family: flush the write-ahead log into table files, then measure.
  java -cp "$OUT/profile/blockfilter-mainnet-profile.jar" org.blockfilter.regtest.mainnet.RocksDbUsageMain --flush "$OUT/$v/data" >"$OUT/$v/usage.txt"
  du -sb "$OUT/$v/data" | cut -f1 >"$OUT/$v/flushed.disk"
  [ "$KEEP" = true ] || rm -rf "$OUT/$v/data"
done
UPTIME_AFTER=$(uptime)
log "uptime after: $UPTIME_AFTER"

# The report. seconds: the indexer's own event=caught_up time (excludes JVM start and store open);
# process wall, CPU and peak RSS from GNU time; heap from the GC log.
field() { grep -o "$1=[^ ]*" | tail -1 | cut -d= -f2; }
indexed_seconds() { grep 'event=caught_up' "$1" | field seconds; }
phase_meta() { meta "$1.$2"; }
heap() { # peak used before a GC, peak live after a GC, MB
  local f=$1
  if grep -q -- '->' "$f"; then
    grep -o '[0-9]*M->[0-9]*M' "$f" | awk -F'M->|M' '{ if ($1>b) b=$1; if ($2>a) a=$2 } END { printf "%d / %d", b, a }'
  else echo "no GC"; fi
}
cpu_split() { # fields beyond the baseline's progress fields, from the last caught_up/progress line
  grep -E 'event=(caught_up|progress)' "$1" | tail -1 | tr ' ' '\n' \
    | grep -E '^((parse|lookup|build|write|fetch|rpc|cpu|prevout)[a-z_]*|[a-z_]+_ms)=' | tr '\n' ' ' || true
}

declare -A RATE
{
  echo
  echo "mainnet profile: $(meta key)"
  echo "  ramp: heights 1-$RAMP_END, $(phase_meta ramp txs) txs, $(phase_meta ramp inputs) inputs, $(phase_meta ramp outputs) outputs -> $(meta utxos_at_ramp_end) UTXOs"
  echo "  steady: heights $((RAMP_END + 1))-$TIP, $(phase_meta steady txs) txs, $(phase_meta steady inputs) inputs, $(phase_meta steady outputs) outputs -> $(meta utxos_at_tip) UTXOs"
  echo "  new: $NEW_DESC; baseline: $BASE_DESC; $(nproc) cores, java $(java -version 2>&1 | head -1 | cut -d'"' -f2)"
  echo "  uptime before: $UPTIME_BEFORE"
  echo "  uptime after:  $UPTIME_AFTER"
  echo
  echo "| code | phase | indexing s (process s) | blocks/s | tx/s | inputs/s | outputs/s | CPU user+sys s | peak RSS MB | heap MB peak/live | disk MB | disk B/block | disk B/UTXO |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  for v in "${VARIANTS[@]}"; do
    for p in ramp steady; do
      d=$OUT/$v
      s=$(indexed_seconds "$d/$p.log")
      read -r wall user sys maxrss <"$d/$p.time"
      blocks=$(phase_meta "$p" blocks); txs=$(phase_meta "$p" txs); ins=$(phase_meta "$p" inputs); outs=$(phase_meta "$p" outputs)
      disk=$(cat "$d/$p.disk")
      if [ "$p" = ramp ]; then h=$RAMP_END; u=$(meta utxos_at_ramp_end); else h=$TIP; u=$(meta utxos_at_tip); fi
      RATE[$v.$p.in]=$(awk -v n="$ins" -v s="$s" 'BEGIN { printf "%.0f", n / s }')
      RATE[$v.$p.out]=$(awk -v n="$outs" -v s="$s" 'BEGIN { printf "%.0f", n / s }')
      awk -v v="$v" -v p="$p" -v s="$s" -v w="$wall" -v b="$blocks" -v t="$txs" -v i="$ins" -v o="$outs" \
          -v cu="$user" -v cs="$sys" -v r="$maxrss" -v hp="$(heap "$d/$p.gc.log")" -v disk="$disk" -v h="$h" -v u="$u" \
        'BEGIN { printf "| %s | %s | %.1f (%.1f) | %.2f | %.0f | %.0f | %.0f | %.0f | %d | %s | %.0f | %.0f | %.1f |\n",
                 v, p, s, w, b / s, t / s, i / s, o / s, cu + cs, r / 1024, hp, disk / 1048576, disk / (h + 1), disk / u }'
    done
  done
  echo
  echo "  disk at the tip after flushing the WAL, by column family (bytes per block: of $((TIP + 1)) blocks; per UTXO: of $(meta utxos_at_tip)):"
  for v in "${VARIANTS[@]}"; do
    awk -v v="$v" -v blocks="$((TIP + 1))" -v utxos="$(meta utxos_at_tip)" -v total="$(cat "$OUT/$v/flushed.disk")" '
      { for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } b = f["sst_bytes"] + f["blob_bytes"]; size[f["cf"]] = b }
      END { printf "    %s: total %.0f MB; block (filters) %.0f MB = %.0f B/block; utxo %.0f MB = %.1f B/UTXO; undo %.0f MB = %.0f B/block; height+default %.1f MB\n",
              v, total / 1048576, size["block"] / 1048576, size["block"] / blocks, size["utxo"] / 1048576, size["utxo"] / utxos,
              size["undo"] / 1048576, size["undo"] / blocks, (size["height"] + size["default"]) / 1048576 }' "$OUT/$v/usage.txt"
  done
  echo
  for v in "${VARIANTS[@]}"; do
    for p in ramp steady; do
      split=$(cpu_split "$OUT/$v/$p.log")
      [ -n "$split" ] && echo "  CPU split $v/$p: $split"
    done
  done
  if [ "$ONLY" = both ]; then
    awk -v a="${RATE[new.steady.in]}" -v b="${RATE[baseline.steady.in]}" -v c="${RATE[new.ramp.out]}" -v d="${RATE[baseline.ramp.out]}" \
      'BEGIN { printf "  ratio new/baseline: steady inputs/s %.2fx, ramp outputs/s %.2fx\n", a / b, c / d }'
  fi
  echo "  logs: $OUT"
} | tee "$OUT/report.md"
