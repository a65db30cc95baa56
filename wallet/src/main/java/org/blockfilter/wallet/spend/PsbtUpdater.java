package org.blockfilter.wallet.spend;

import java.util.List;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.descriptor.DerivedKey;
import org.blockfilter.wallet.descriptor.DescriptorOutput;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.DerivedAddress;
import org.blockfilter.wallet.ledger.Utxo;
import org.blockfilter.wallet.psbt.Bip32Derivation;
import org.blockfilter.wallet.psbt.Psbt;
import org.blockfilter.wallet.psbt.PsbtField;
import org.blockfilter.wallet.psbt.PsbtMap;

/**
 * BIP 174's Updater for the wallet's own coins, from each output's descriptor: per input the witness
 * UTXO (segwit), the full previous transaction for every input that is not taproot (BIP 174 requires
 * it for legacy inputs; BDK and hardware wallets also ask for it for segwit v0, whose BIP 143 sighash
 * does not commit to the other inputs' amounts), the redeem and witness scripts, every key's BIP 32
 * derivation (its origin: master fingerprint and full path when the descriptor gives one) or, for
 * P2TR, the taproot internal key and its derivation (BIP 371); the same for the change output, so a
 * signer can tell change from a payment. Stateless.
 */
final class PsbtUpdater {
    private PsbtUpdater() {}

    static Psbt update(LightWallet wallet, Psbt psbt, List<Utxo> inputs, DerivedAddress change) {
        for (int i = 0; i < inputs.size(); i++) {
            Utxo u = inputs.get(i);
            DerivedAddress a = wallet.keys().lookup(u.script()).orElseThrow();
            PsbtMap in = psbt.input(i);
            if (a.kind() != AddressKind.P2PKH) {
                in = in.with(
                        PsbtField.IN_WITNESS_UTXO.type(),
                        new org.bitcoinj.core.TransactionOutput(
                                        null, u.value(), u.script().bytes())
                                .serialize());
            }
            if (a.kind() != AddressKind.P2TR) {
                byte[] previous = wallet.ledger()
                        .get(u.outpoint().hash())
                        .orElseThrow(() -> new IllegalStateException(
                                "the transaction paying " + u.outpoint() + " is not in the ledger"))
                        .raw();
                in = in.with(PsbtField.IN_NON_WITNESS_UTXO.type(), previous);
            }
            psbt = psbt.withInput(i, describe(wallet, in, a, true));
        }
        if (change != null) {
            int out = psbt.outputs().size() - 1; // the change output is added last
            psbt = psbt.withOutput(out, describe(wallet, psbt.output(out), change, false));
        }
        return psbt;
    }

    private static PsbtMap describe(LightWallet wallet, PsbtMap m, DerivedAddress a, boolean input) {
        DescriptorOutput o = wallet.keys().account(a.kind()).orElseThrow().output(a.change(), a.index());
        if (a.kind() == AddressKind.P2TR) {
            byte[] internal = o.internalKey().orElseThrow();
            PsbtField key = input ? PsbtField.IN_TAP_INTERNAL_KEY : PsbtField.OUT_TAP_INTERNAL_KEY;
            PsbtField tap = input ? PsbtField.IN_TAP_BIP32_DERIVATION : PsbtField.OUT_TAP_BIP32_DERIVATION;
            m = m.with(key.type(), internal);
            for (DerivedKey k : o.keys()) {
                m = m.with(tap.type(), k.xOnly(), derivation(k).encodeTaproot());
            }
            return m;
        }
        PsbtField redeem = input ? PsbtField.IN_REDEEM_SCRIPT : PsbtField.OUT_REDEEM_SCRIPT;
        PsbtField witness = input ? PsbtField.IN_WITNESS_SCRIPT : PsbtField.OUT_WITNESS_SCRIPT;
        PsbtField bip32 = input ? PsbtField.IN_BIP32_DERIVATION : PsbtField.OUT_BIP32_DERIVATION;
        if (o.redeemScript().isPresent()) {
            m = m.with(redeem.type(), o.redeemScript().get());
        }
        if (o.witnessScript().isPresent()) {
            m = m.with(witness.type(), o.witnessScript().get());
        }
        for (DerivedKey k : o.keys()) {
            m = m.with(bip32.type(), k.publicKey(), derivation(k).encode());
        }
        return m;
    }

    private static Bip32Derivation derivation(DerivedKey k) {
        return new Bip32Derivation(k.origin().fingerprint(), k.origin().path());
    }
}
