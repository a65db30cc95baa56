#!/bin/sh
# How long `sync` takes with one honest source and one peer that accepts connections and never
# says a word, against the demo server (embedded regtest node, 300 blocks).
#   wallet/bench/silent-peer.sh [OTHER_WALLET_LAUNCHER]
# Builds nothing: needs server/target/blockfilter-server.jar and wallet/cli/target/blockfilter-wallet.jar
# (./mvnw -B -q -DskipTests package). With an argument, the same runs use that launcher too
# (e.g. the wallet of another checkout) and the ratio is printed. Needs python3 and curl.
set -eu
root=$(CDPATH= cd -- "$(dirname -- "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'kill $server $silent 2>/dev/null || true; rm -rf "$work"' EXIT INT TERM
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
http=$(free_port)
p2p=$(free_port)
java -jar "$root/server/target/blockfilter-server.jar" --port "$http" --p2p-port "$p2p" >"$work/server.log" 2>&1 &
server=$!
silent_port=$(free_port)
python3 -c '
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(16); held = []
while True:
    held.append(s.accept()[0])  # and never a word
' "$silent_port" &
silent=$!
until curl -fs "http://127.0.0.1:$http/api/v1/status" | grep -q '"indexedHeight":300'; do sleep 1; done
export BLOCKFILTER_PASSPHRASE=bench
uptime
run() { # launcher label sources...
    launcher=$1; label=$2; shift 2
    w="$work/$label-$(date +%s%N).json"
    "$launcher" --wallet "$w" create --seal secret-only >/dev/null
    t0=$(date +%s%N)
    set +e
    "$launcher" --wallet "$w" sync --quiet "$@" >"$work/out" 2>&1
    code=$?
    set -e
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    echo "$label: exit $code, $ms ms: $(grep -E 'synced|dropped|error' "$work/out" | tr '\n' ' ' | cut -c1-300)"
    echo "$ms" >"$work/$label.ms"
}
for launcher in "$root/wallet/blockfilter-wallet" "$@"; do
    tag=$( [ "$launcher" = "$root/wallet/blockfilter-wallet" ] && echo this || echo other )
    run "$launcher" "$tag-honest-only" --server "http://127.0.0.1:$http"
    run "$launcher" "$tag-rest+silent" --server "http://127.0.0.1:$http" --peer "127.0.0.1:$silent_port"
    run "$launcher" "$tag-p2p+silent" --peer "127.0.0.1:$p2p" --peer "127.0.0.1:$silent_port"
done
if [ $# -gt 0 ]; then
    for case in rest+silent p2p+silent; do
        echo "$case: other / this = $(python3 -c "print(round($(cat "$work/other-$case.ms") / $(cat "$work/this-$case.ms"), 1))")"
    done
fi
uptime
