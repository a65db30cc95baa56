package org.blockfilter.wallet.psbt;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.crypto.TransactionSignature;
import org.blockfilter.wallet.keys.Schnorr;
import org.blockfilter.wallet.keys.Taproot;
import org.blockfilter.wallet.spend.TaprootSighash;

/**
 * BIP 174's Signer for the inputs whose keys {@link PsbtKeys} holds: P2PKH, P2WPKH, P2SH-P2WPKH,
 * P2WSH and P2SH-P2WSH (ECDSA over bitcoinj's legacy and BIP 143 sighashes, SIGHASH_ALL) and P2TR
 * key path (BIP 340 over the BIP 341 SIGHASH_DEFAULT message, for BIP 86 internal keys). It only
 * adds signatures, never changes what is there, and signs only with the UTXOs the PSBT carries,
 * after the BIP's checks. Every signature is verified before it is added. Stateless; thread-safe.
 */
public final class PsbtSigner {
    private static final int SIGHASH_DEFAULT = 0x00;
    private static final int SIGHASH_ALL = 0x01;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** The signed PSBT, how many signatures were added and, per input left unsigned, why. */
    public record Result(Psbt psbt, int signatures, List<String> skipped) {
        public Result {
            skipped = List.copyOf(skipped);
        }
    }

    private PsbtSigner() {}

    /**
     * BIP 174's Signer: signs every input whose key {@code keys} holds (ECDSA with SIGHASH_ALL for legacy and segwit v0
     * inputs, BIP 340 with SIGHASH_DEFAULT for taproot key paths). Inputs left unsigned are listed with the reason.
     */
    public static Result sign(Psbt psbt, PsbtKeys keys) {
        Transaction tx = psbt.unsignedTx();
        int added = 0;
        List<String> skipped = new ArrayList<>();
        for (int i = 0; i < tx.getInputs().size(); i++) {
            if (psbt.isFinalized(i)) {
                continue;
            }
            try {
                InputShape shape = InputShape.of(psbt, i);
                PsbtMap in = psbt.input(i);
                int hashType = in.get(PsbtField.IN_SIGHASH_TYPE.type())
                        .map(v -> ByteBuffer.wrap(v)
                                .order(ByteOrder.LITTLE_ENDIAN)
                                .getInt())
                        .orElse(shape.kind() == InputShape.Kind.P2TR ? SIGHASH_DEFAULT : SIGHASH_ALL);
                if (hashType != SIGHASH_ALL && !(shape.kind() == InputShape.Kind.P2TR && hashType == SIGHASH_DEFAULT)) {
                    throw new IllegalArgumentException(
                            "input " + i + " asks for sighash type 0x" + Integer.toHexString(hashType)
                                    + "; this wallet signs only SIGHASH_ALL (and taproot's DEFAULT)");
                }
                PsbtMap next = shape.kind() == InputShape.Kind.P2TR
                        ? signTaproot(psbt, tx, i, in, keys, hashType)
                        : signEcdsa(tx, i, in, shape, keys);
                if (next == in) {
                    skipped.add("input " + i + ": no key of this wallet");
                } else {
                    added += next.entries().size() - in.entries().size();
                    psbt = psbt.withInput(i, next);
                }
            } catch (IllegalArgumentException e) {
                skipped.add(e.getMessage() != null ? e.getMessage() : "input " + i + ": " + e);
            }
        }
        return new Result(psbt, added, skipped);
    }

    private static PsbtMap signEcdsa(Transaction tx, int i, PsbtMap in, InputShape shape, PsbtKeys keys) {
        PsbtMap next = in;
        for (PsbtMap.Entry d : in.all(PsbtField.IN_BIP32_DERIVATION.type())) {
            byte[] pub = d.keyData();
            if (!shape.involves(pub)
                    || in.get(PsbtField.IN_PARTIAL_SIG.type(), pub).isPresent()) {
                continue;
            }
            Bip32Derivation origin = Bip32Derivation.read(d.value());
            Optional<ECKey> key = keys.privateKey(pub, origin.fingerprint(), origin.path())
                    .filter(k -> Arrays.equals(k.getPubKey(), pub));
            if (key.isEmpty()) {
                continue;
            }
            Sha256Hash hash = shape.kind().segwitV0()
                    ? tx.hashForWitnessSignature(i, shape.scriptCode(), shape.value(), Transaction.SigHash.ALL, false)
                    : tx.hashForSignature(i, shape.scriptCode(), Transaction.SigHash.ALL, false);
            ECKey.ECDSASignature sig = key.get().sign(hash);
            if (!ECKey.verify(hash.getBytes(), sig, pub)) {
                throw new IllegalStateException("signature for input " + i + " does not verify");
            }
            byte[] encoded = new TransactionSignature(sig, Transaction.SigHash.ALL, false).encodeToBitcoin();
            next = next.with(PsbtField.IN_PARTIAL_SIG.type(), pub, encoded);
        }
        return next;
    }

    private static PsbtMap signTaproot(Psbt psbt, Transaction tx, int i, PsbtMap in, PsbtKeys keys, int hashType) {
        if (in.has(PsbtField.IN_TAP_KEY_SIG.type())) {
            return in;
        }
        byte[] internal = in.get(PsbtField.IN_TAP_INTERNAL_KEY.type()).orElse(null);
        byte[] merkleRoot = in.get(PsbtField.IN_TAP_MERKLE_ROOT.type()).orElse(null);
        if (internal == null) {
            throw new IllegalArgumentException("input " + i + " spends P2TR but has no taproot internal key");
        }
        byte[] program = InputShape.of(psbt, i).outputKey();
        if (!Arrays.equals(Taproot.outputKey(internal, merkleRoot), program)) {
            throw new IllegalArgumentException(
                    "input " + i + ": the internal key does not tweak to the spent output key");
        }
        byte[] derivation =
                in.get(PsbtField.IN_TAP_BIP32_DERIVATION.type(), internal).orElse(null);
        if (derivation == null) {
            return in;
        }
        Bip32Derivation origin = Bip32Derivation.readTaproot(derivation);
        byte[] lifted = new byte[33];
        Optional<ECKey> key = Optional.empty();
        for (byte prefix : new byte[] {0x02, 0x03}) {
            lifted[0] = prefix;
            System.arraycopy(internal, 0, lifted, 1, 32);
            key = keys.privateKey(lifted.clone(), origin.fingerprint(), origin.path())
                    .filter(k -> Arrays.equals(Arrays.copyOfRange(k.getPubKey(), 1, 33), internal));
            if (key.isPresent()) {
                break;
            }
        }
        if (key.isEmpty()) {
            return in;
        }
        List<TaprootSighash.SpentOutput> spent = new ArrayList<>();
        for (int j = 0; j < tx.getInputs().size(); j++) {
            TransactionOutput o = psbt.spentOutput(j)
                    .orElseThrow(() -> new IllegalArgumentException(
                            "input " + i + ": a taproot signature commits to every input's UTXO and one is missing"));
            spent.add(new TaprootSighash.SpentOutput(o.getValue().value, o.getScriptBytes()));
        }
        byte[] sighash = TaprootSighash.hash(tx, i, spent, hashType);
        byte[] aux = new byte[32];
        RANDOM.nextBytes(aux);
        byte[] sig = Schnorr.sign(sighash, Taproot.tweakPrivateKey(key.get().getPrivKeyBytes(), merkleRoot), aux);
        if (!Schnorr.verify(sig, sighash, program)) {
            throw new IllegalStateException("taproot signature for input " + i + " does not verify");
        }
        if (hashType != SIGHASH_DEFAULT) {
            sig = Arrays.copyOf(sig, 65);
            sig[64] = (byte) hashType;
        }
        return in.with(PsbtField.IN_TAP_KEY_SIG.type(), sig);
    }
}
