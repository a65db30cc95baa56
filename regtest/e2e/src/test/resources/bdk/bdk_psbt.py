"""BDK (bdkpython) as the other PSBT wallet in blockfilter's interop tests (beside bdk_wallet.py,
whose Kyoto sync it uses).

Every command prints one JSON object on stdout; errors go to stderr with a non-zero exit.
RECEIVE and CHANGE are output descriptors (BDK's syntax, private keys where BDK signs).

  descriptors MNEMONIC KIND
      BDK's own BIP 44/84/86 (KIND 44, 84 or 86) receive and change descriptors for MNEMONIC on
      regtest, public and with their private keys.
  sign RECEIVE CHANGE PSBT
      Signs the Base64 PSBT with the wallet's keys and prints it, not finalized (try_finalize off):
      finalizing is left to the other wallet.
  finalize RECEIVE CHANGE PSBT
      Finalizes the PSBT with BDK's finalizer and prints it with the extracted transaction.
  build RECEIVE CHANGE PEER ADDRESS:SATS...
      Syncs the wallet with Kyoto (BDK's BIP 157 client) from PEER (host:port) and builds an
      unsigned PSBT paying each ADDRESS:SATS at 2 sat/vB.
"""
import asyncio
import json
import sys
import tempfile

import bdkpython as bdk

from bdk_wallet import peer, sync_one

NETWORK = bdk.Network.REGTEST
TEMPLATES = {
    "44": bdk.Descriptor.new_bip44,
    "84": bdk.Descriptor.new_bip84,
    "86": bdk.Descriptor.new_bip86,
}


def options():
    return bdk.SignOptions(trust_witness_utxo=False, assume_height=None, allow_all_sighashes=False,
                           try_finalize=False, sign_with_tap_internal_key=True, allow_grinding=True)


def wallet(receive, change):
    return bdk.Wallet(bdk.Descriptor(receive, bdk.NetworkKind.TEST), bdk.Descriptor(change, bdk.NetworkKind.TEST),
                      NETWORK, bdk.Persister.new_in_memory())


def descriptors(mnemonic, kind):
    key = bdk.DescriptorSecretKey(bdk.NetworkKind.TEST, bdk.Mnemonic.from_string(mnemonic), None)
    make = TEMPLATES[kind]
    r = make(key, bdk.KeychainKind.EXTERNAL, bdk.NetworkKind.TEST)
    c = make(key, bdk.KeychainKind.INTERNAL, bdk.NetworkKind.TEST)
    return {"receive": str(r), "change": str(c),
            "receivePrivate": r.to_string_with_secret(), "changePrivate": c.to_string_with_secret()}


def sign(receive, change, text):
    psbt = bdk.Psbt(text)
    finalized = wallet(receive, change).sign(psbt, options())
    return {"psbt": psbt.serialize(), "finalized": finalized}


def finalize(receive, change, text):
    psbt = bdk.Psbt(text)
    finalized = wallet(receive, change).finalize_psbt(psbt, None)
    out = {"psbt": psbt.serialize(), "finalized": finalized}
    if finalized:
        tx = psbt.extract_tx()
        out["txid"] = str(tx.compute_txid())
        out["raw"] = tx.serialize().hex()
    return out


async def build(receive, change, peer_text, payments):
    w = wallet(receive, change)
    with tempfile.TemporaryDirectory(prefix="bdk-kyoto-") as tmp:
        (await sync_one(w, peer(peer_text), tmp)).shutdown()
    builder = bdk.TxBuilder().fee_rate(bdk.FeeRate.from_sat_per_vb(2))
    for address, sats in payments:
        builder = builder.add_recipient(bdk.Address(address, NETWORK).script_pubkey(), bdk.Amount.from_sat(sats))
    psbt = builder.finish(w)
    return {"psbt": psbt.serialize(), "balance": w.balance().total.to_sat(),
            "receive0": str(w.peek_address(bdk.KeychainKind.EXTERNAL, 0).address)}


def main(argv):
    command = argv[1]
    if command == "descriptors":
        result = descriptors(argv[2], argv[3])
    elif command == "sign":
        result = sign(argv[2], argv[3], argv[4])
    elif command == "finalize":
        result = finalize(argv[2], argv[3], argv[4])
    elif command == "build":
        payments = []
        for spec in argv[5:]:
            address, sats = spec.rsplit(":", 1)
            payments.append((address, int(sats)))
        result = asyncio.run(build(argv[2], argv[3], argv[4], payments))
    else:
        raise SystemExit(f"unknown command {command}")
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv)
