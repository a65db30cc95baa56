package org.blockfilter.wallet.spend;

import java.util.List;
import org.bitcoinj.crypto.DeterministicKey;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.descriptor.KeyOrigin;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.DerivedAddress;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.ledger.Utxo;
import org.blockfilter.wallet.psbt.Bip32Derivation;
import org.blockfilter.wallet.psbt.Psbt;
import org.blockfilter.wallet.psbt.PsbtField;
import org.blockfilter.wallet.psbt.PsbtMap;

/**
 * BIP 174's Updater for the wallet's own coins: per input the witness UTXO, the full previous
 * transaction for every input that is not taproot (BIP 174 requires it for legacy inputs; BDK and
 * hardware wallets also ask for it for segwit v0, whose BIP 143 sighash does not commit to the other
 * inputs' amounts), the BIP 32 derivation of its key or, for P2TR, the taproot internal key and its
 * derivation (BIP 371); the same derivation for the change output, so a signer can tell change from
 * a payment. Stateless.
 */
final class PsbtUpdater {
    private PsbtUpdater() {}

    static Psbt update(LightWallet wallet, Psbt psbt, List<Utxo> inputs, DerivedAddress change) {
        for (int i = 0; i < inputs.size(); i++) {
            Utxo u = inputs.get(i);
            DerivedAddress a = wallet.keys().lookup(u.script()).orElseThrow();
            PsbtMap in = psbt.input(i);
            byte[] witnessUtxo = new org.bitcoinj.core.TransactionOutput(
                            null, u.value(), u.script().bytes())
                    .serialize();
            if (a.kind() != AddressKind.P2PKH) {
                in = in.with(PsbtField.IN_WITNESS_UTXO.type(), witnessUtxo);
            }
            if (a.kind() != AddressKind.P2TR) {
                byte[] previous = wallet.ledger()
                        .get(u.outpoint().hash())
                        .orElseThrow(() -> new IllegalStateException(
                                "the transaction paying " + u.outpoint() + " is not in the ledger"))
                        .raw();
                in = in.with(PsbtField.IN_NON_WITNESS_UTXO.type(), previous);
            }
            psbt = psbt.withInput(i, derivation(wallet, in, a, true));
        }
        if (change != null) {
            int out = psbt.outputs().size() - 1; // the change output is added last
            psbt = psbt.withOutput(out, derivation(wallet, psbt.output(out), change, false));
        }
        return psbt;
    }

    private static PsbtMap derivation(LightWallet wallet, PsbtMap m, DerivedAddress a, boolean input) {
        HdAccount account = wallet.keys().account(a.kind()).orElseThrow();
        DeterministicKey key = account.key(a.change(), a.index());
        KeyOrigin o = account.origin(a.change(), a.index());
        Bip32Derivation d = new Bip32Derivation(o.fingerprint(), o.path());
        if (a.kind() == AddressKind.P2TR) {
            byte[] xOnly = java.util.Arrays.copyOfRange(key.getPubKey(), 1, 33);
            PsbtField internal = input ? PsbtField.IN_TAP_INTERNAL_KEY : PsbtField.OUT_TAP_INTERNAL_KEY;
            PsbtField tap = input ? PsbtField.IN_TAP_BIP32_DERIVATION : PsbtField.OUT_TAP_BIP32_DERIVATION;
            return m.with(internal.type(), xOnly).with(tap.type(), xOnly, d.encodeTaproot());
        }
        PsbtField f = input ? PsbtField.IN_BIP32_DERIVATION : PsbtField.OUT_BIP32_DERIVATION;
        return m.with(f.type(), key.getPubKey(), d.encode());
    }
}
