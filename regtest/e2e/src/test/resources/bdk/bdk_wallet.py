"""BDK (bdkpython) as the other wallet in blockfilter's interop tests.

Every command prints one JSON object on stdout; errors go to stderr with a non-zero exit.

  addresses MNEMONIC COUNT
      The first COUNT receive and change addresses of BIP 44, 84 and 86 on regtest.
  sync MNEMONIC PEER KINDS [PAY...]
      Syncs one BDK wallet per kind (44, 84, 86; comma separated) with Kyoto, BDK's BIP 157
      client (CbfBuilder), from PEER (host:port, P2P with compact filters), then prints the
      balance, unspent outputs and transactions. Each PAY is ADDRESS:SATS: the first wallet pays
      them in one transaction, signed by BDK and printed (txid and raw hex) for the caller to
      relay. Kyoto's own broadcast announces the transaction and waits for the peer to ask for
      it; btcd 0.26 never asked within 15 s in our runs, so relaying is left to the test.
  descriptor-addresses RECEIVE CHANGE COUNT
      The first COUNT addresses of a wallet made from the two descriptors (public, regtest).
  descriptor-sync PEER RECEIVE CHANGE
      Syncs a watch-only wallet of the two descriptors with Kyoto from PEER and prints what sync prints.
  passphrase-addresses MNEMONIC PASSPHRASE COUNT
      The first COUNT BIP 84 receive addresses of the mnemonic with a BIP 39 passphrase.
  export MNEMONIC KIND
      BDK's own public receive and change descriptors of one kind (44, 49, 84, 86) of the mnemonic.
"""
import asyncio
import json
import sys
import tempfile

import bdkpython as bdk

NETWORK = bdk.Network.REGTEST
TEMPLATES = {
    "44": bdk.Descriptor.new_bip44,
    "49": bdk.Descriptor.new_bip49,
    "84": bdk.Descriptor.new_bip84,
    "86": bdk.Descriptor.new_bip86,
}


def descriptors(mnemonic, kind, passphrase=None):
    key = bdk.DescriptorSecretKey(bdk.NetworkKind.TEST, bdk.Mnemonic.from_string(mnemonic), passphrase)
    make = TEMPLATES[kind]
    return (make(key, bdk.KeychainKind.EXTERNAL, bdk.NetworkKind.TEST),
            make(key, bdk.KeychainKind.INTERNAL, bdk.NetworkKind.TEST))


def new_wallet(mnemonic, kind):
    receive, change = descriptors(mnemonic, kind)
    return bdk.Wallet(receive, change, NETWORK, bdk.Persister.new_in_memory())


def descriptor_wallet(receive, change):
    return bdk.Wallet(bdk.Descriptor(receive, bdk.NetworkKind.TEST), bdk.Descriptor(change, bdk.NetworkKind.TEST),
                      NETWORK, bdk.Persister.new_in_memory())


def descriptor_addresses(receive, change, count):
    w = descriptor_wallet(receive, change)
    return {
        "receive": [str(w.peek_address(bdk.KeychainKind.EXTERNAL, i).address) for i in range(count)],
        "change": [str(w.peek_address(bdk.KeychainKind.INTERNAL, i).address) for i in range(count)],
    }


async def descriptor_sync(peer_text, receive, change):
    w = descriptor_wallet(receive, change)
    # Kyoto scans from the wallet's birthday; reveal the gap so every index 0..19 is watched.
    w.reveal_addresses_to(bdk.KeychainKind.EXTERNAL, 19)
    w.reveal_addresses_to(bdk.KeychainKind.INTERNAL, 19)
    with tempfile.TemporaryDirectory(prefix="bdk-kyoto-") as tmp:
        client = await sync_one(w, peer(peer_text), tmp)
        try:
            return describe(w)
        finally:
            client.shutdown()


def passphrase_addresses(mnemonic, passphrase, count):
    receive, change = descriptors(mnemonic, "84", passphrase)
    w = bdk.Wallet(receive, change, NETWORK, bdk.Persister.new_in_memory())
    return {"receive": [str(w.peek_address(bdk.KeychainKind.EXTERNAL, i).address) for i in range(count)]}


def export(mnemonic, kind):
    receive, change = descriptors(mnemonic, kind)
    return {"receive": str(receive), "change": str(change)}


def addresses(mnemonic, count):
    out = {}
    for kind in ("44", "84", "86"):
        w = new_wallet(mnemonic, kind)
        out[kind] = {
            "receive": [str(w.peek_address(bdk.KeychainKind.EXTERNAL, i).address) for i in range(count)],
            "change": [str(w.peek_address(bdk.KeychainKind.INTERNAL, i).address) for i in range(count)],
        }
    return out


def peer(text):
    host, port = text.rsplit(":", 1)
    octets = [int(x) for x in host.split(".")]
    return bdk.Peer(address=bdk.IpAddress.from_ipv4(*octets), port=int(port), v2_transport=False)


async def sync_one(w, p, data_dir):
    components = (bdk.CbfBuilder()
                  .peers([p])
                  .connections(1)
                  .only_configured_peers()
                  .data_dir(data_dir)
                  .configure_timeout_millis(20_000, 20_000)
                  .build(w))
    components.node.run()
    client = components.client
    update = await client.update()
    w.apply_update(update)
    return client


def describe(w):
    b = w.balance()
    return {
        "confirmed": b.confirmed.to_sat(),
        "immature": b.immature.to_sat(),
        "pending": b.trusted_pending.to_sat() + b.untrusted_pending.to_sat(),
        "total": b.total.to_sat(),
        "tip": w.latest_checkpoint().height,
        "utxos": sorted(f"{u.outpoint.txid}:{u.outpoint.vout}" for u in w.list_unspent()),
        "txids": sorted(str(t.transaction.compute_txid()) for t in w.transactions()),
    }


async def sync(mnemonic, peer_text, kinds, payments):
    p = peer(peer_text)
    out = {"wallets": {}}
    with tempfile.TemporaryDirectory(prefix="bdk-kyoto-") as tmp:
        for i, kind in enumerate(kinds):
            w = new_wallet(mnemonic, kind)
            client = await sync_one(w, p, f"{tmp}/{kind}")
            try:
                if i == 0 and payments:
                    builder = bdk.TxBuilder().fee_rate(bdk.FeeRate.from_sat_per_vb(2))
                    for address, sats in payments:
                        script = bdk.Address(address, NETWORK).script_pubkey()
                        builder = builder.add_recipient(script, bdk.Amount.from_sat(sats))
                    psbt = builder.finish(w)
                    if not w.sign(psbt):
                        raise RuntimeError("BDK could not sign every input")
                    tx = psbt.extract_tx()
                    out["paid"] = str(tx.compute_txid())
                    out["raw"] = tx.serialize().hex()
                out["wallets"][kind] = describe(w)
            finally:
                client.shutdown()
    return out


def main(argv):
    command = argv[1]
    if command == "addresses":
        result = addresses(argv[2], int(argv[3]))
    elif command == "sync":
        payments = []
        for spec in argv[5:]:
            address, sats = spec.rsplit(":", 1)
            payments.append((address, int(sats)))
        result = asyncio.run(sync(argv[2], argv[3], argv[4].split(","), payments))
    elif command == "descriptor-addresses":
        result = descriptor_addresses(argv[2], argv[3], int(argv[4]))
    elif command == "descriptor-sync":
        result = asyncio.run(descriptor_sync(argv[2], argv[3], argv[4]))
    elif command == "passphrase-addresses":
        result = passphrase_addresses(argv[2], argv[3], int(argv[4]))
    elif command == "export":
        result = export(argv[2], argv[3])
    else:
        raise SystemExit(f"unknown command {command}")
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv)
