"""A BDK wallet synced by BDK's Kyoto compact-filter client (CbfBuilder) from one configured peer.

Driven line by line over stdin; answers one JSON object per line on stdout (logs go to stderr):
  addresses N        reveal N receive addresses -> {"addresses": [{"address", "script"}]}
  update             wait for the next update from the light client, apply it -> state
  send ADDRESS SATS  build, sign and broadcast a payment through the peer -> {"txid", "wtxid"}
  conflict ADDRESS   spend every coin the wallet knows (those of a payment just sent included, which the
                     wallet does not know are spent) to ADDRESS at 1 sat/vB, and broadcast it through the
                     peer: a conflict paying less than the payment, which a node refuses -> {"txid", "wtxid"}
  quit
State: {"height", "hash", "total", "confirmed", "txids"}.
Usage: cbf_wallet.py PEER_PORT DATA_DIR
"""
import asyncio
import json
import sys

from bdkpython import (Address, Amount, CbfBuilder, Descriptor, DescriptorSecretKey, FeeRate, IpAddress,
                       KeychainKind, Mnemonic, Network, NetworkKind, Peer, Persister, ScanType, TxBuilder, Wallet)

MNEMONIC = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"


def out(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def state(wallet):
    tip = wallet.latest_checkpoint()
    balance = wallet.balance()
    txids = sorted(str(t.transaction.compute_txid()) for t in wallet.transactions())
    return {"height": tip.height, "hash": str(tip.hash), "total": balance.total.to_sat(),
            "confirmed": balance.confirmed.to_sat(), "txids": txids}


async def relay_messages(client):
    async def infos():
        while True:
            log("info:", await client.next_info())

    async def warnings():
        while True:
            log("warning:", await client.next_warning())

    await asyncio.gather(infos(), warnings())


async def main():
    port, data_dir = int(sys.argv[1]), sys.argv[2]
    v2 = len(sys.argv) > 3 and sys.argv[3] == "v2"  # BIP 324 transport to the peer
    key = DescriptorSecretKey(NetworkKind.TEST, Mnemonic.from_string(MNEMONIC), None)
    wallet = Wallet(Descriptor.new_bip84(key, KeychainKind.EXTERNAL, NetworkKind.TEST),
                    Descriptor.new_bip84(key, KeychainKind.INTERNAL, NetworkKind.TEST),
                    Network.REGTEST, Persister.new_in_memory())
    components = None
    loop = asyncio.get_running_loop()
    while True:
        line = (await loop.run_in_executor(None, sys.stdin.readline)).strip()
        if not line or line == "quit":
            break
        cmd, *args = line.split()
        if cmd == "addresses":
            revealed = [wallet.reveal_next_address(KeychainKind.EXTERNAL) for _ in range(int(args[0]))]
            out({"addresses": [{"address": str(a.address), "script": a.address.script_pubkey().to_bytes().hex()}
                               for a in revealed]})
            continue
        if components is None:
            peer = Peer(address=IpAddress.from_ipv4(127, 0, 0, 1), port=port, v2_transport=v2)
            components = (CbfBuilder().peers([peer]).only_configured_peers().connections(1)
                          .data_dir(data_dir).scan_type(ScanType.SYNC()).build(wallet))
            components.node.run()
            asyncio.ensure_future(relay_messages(components.client))
        client = components.client
        if cmd == "update":
            wallet.apply_update(await client.update())
            out(state(wallet))
        elif cmd == "send":
            to = Address(args[0], Network.REGTEST)
            psbt = (TxBuilder().add_recipient(to.script_pubkey(), Amount.from_sat(int(args[1])))
                    .fee_rate(FeeRate.from_sat_per_vb(2)).finish(wallet))
            wallet.sign(psbt)
            tx = psbt.extract_tx()
            wtxid = await client.broadcast(tx)
            out({"txid": str(tx.compute_txid()), "wtxid": str(wtxid)})
        elif cmd == "conflict":
            to = Address(args[0], Network.REGTEST)
            psbt = (TxBuilder().drain_wallet().drain_to(to.script_pubkey())
                    .fee_rate(FeeRate.from_sat_per_vb(1)).finish(wallet))
            wallet.sign(psbt)
            tx = psbt.extract_tx()
            wtxid = await client.broadcast(tx)
            out({"txid": str(tx.compute_txid()), "wtxid": str(wtxid)})
        else:
            out({"error": "unknown command " + cmd})
    if components is not None:
        components.client.shutdown()


asyncio.run(main())
