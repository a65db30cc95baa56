package org.blockfilter.wallet.spend;

import java.io.ByteArrayOutputStream;
import java.security.MessageDigest;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.base.VarInt;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutput;
import org.blockfilter.wallet.keys.Taproot;

/**
 * The BIP 341 signature message and hash of a taproot key-path spend (no annex, no script path):
 * {@code hashTapSighash(0x00 || SigMsg(hash_type, 0))}. Unlike BIP 143 it commits to the amounts and
 * scriptPubKeys of every input, so the caller passes all spent outputs. bitcoinj 0.17 has no taproot
 * sighash. Stateless; thread-safe.
 */
public final class TaprootSighash {
    /** BIP 341: like SIGHASH_ALL, but the signature is 64 bytes with no hash-type byte. */
    public static final int SIGHASH_DEFAULT = 0x00;

    private static final int SIGHASH_ALL = 0x01;
    private static final int SIGHASH_NONE = 0x02;
    private static final int SIGHASH_SINGLE = 0x03;
    private static final int SIGHASH_ANYONECANPAY = 0x80;

    /** An output being spent: its value in satoshis and its scriptPubKey. */
    public record SpentOutput(long value, byte[] scriptPubKey) {}

    private TaprootSighash() {}

    /** The 32-byte message a key-path signature of input {@code index} signs. */
    public static byte[] hash(Transaction tx, int index, List<SpentOutput> spent, int hashType) {
        return Taproot.taggedHash("TapSighash", message(tx, index, spent, hashType));
    }

    /** {@code 0x00 (epoch) || SigMsg(hash_type, ext_flag 0)}, as BIP 341 spells it out. */
    public static byte[] message(Transaction tx, int index, List<SpentOutput> spent, int hashType) {
        int inputs = tx.getInputs().size();
        if (spent.size() != inputs) {
            throw new IllegalArgumentException(spent.size() + " spent outputs for " + inputs + " inputs");
        }
        if (index < 0 || index >= inputs) {
            throw new IllegalArgumentException("input index " + index + " out of 0.." + (inputs - 1));
        }
        int base = hashType & 0x03;
        boolean anyoneCanPay = (hashType & SIGHASH_ANYONECANPAY) != 0;
        if (!(hashType == SIGHASH_DEFAULT || ((hashType & ~0x83) == 0 && base != 0))) {
            throw new IllegalArgumentException("invalid taproot hash type 0x" + Integer.toHexString(hashType));
        }
        if (base == SIGHASH_SINGLE && index >= tx.getOutputs().size()) {
            throw new IllegalArgumentException("SIGHASH_SINGLE for input " + index + " without a matching output");
        }
        ByteArrayOutputStream m = new ByteArrayOutputStream(210);
        m.write(0x00); // epoch
        m.write(hashType);
        u32(m, tx.getVersion());
        u32(m, tx.getLockTime());
        if (!anyoneCanPay) {
            MessageDigest prevouts = Sha256Hash.newDigest();
            MessageDigest amounts = Sha256Hash.newDigest();
            MessageDigest scripts = Sha256Hash.newDigest();
            MessageDigest sequences = Sha256Hash.newDigest();
            for (int i = 0; i < inputs; i++) {
                TransactionInput in = tx.getInput(i);
                prevouts.update(in.getOutpoint().serialize());
                amounts.update(u64(spent.get(i).value()));
                scripts.update(script(spent.get(i).scriptPubKey()));
                sequences.update(u32(in.getSequenceNumber()));
            }
            m.writeBytes(prevouts.digest());
            m.writeBytes(amounts.digest());
            m.writeBytes(scripts.digest());
            m.writeBytes(sequences.digest());
        }
        if (base != SIGHASH_NONE && base != SIGHASH_SINGLE) {
            MessageDigest outputs = Sha256Hash.newDigest();
            for (TransactionOutput out : tx.getOutputs()) {
                outputs.update(out.serialize());
            }
            m.writeBytes(outputs.digest());
        }
        m.write(0x00); // spend_type: key path (ext_flag 0), no annex
        if (anyoneCanPay) {
            TransactionInput in = tx.getInput(index);
            m.writeBytes(in.getOutpoint().serialize());
            m.writeBytes(u64(spent.get(index).value()));
            m.writeBytes(script(spent.get(index).scriptPubKey()));
            m.writeBytes(u32(in.getSequenceNumber()));
        } else {
            u32(m, index);
        }
        if (base == SIGHASH_SINGLE) {
            m.writeBytes(Sha256Hash.hash(tx.getOutput(index).serialize()));
        }
        return m.toByteArray();
    }

    private static byte[] script(byte[] s) {
        byte[] len = VarInt.of(s.length).serialize();
        byte[] out = new byte[len.length + s.length];
        System.arraycopy(len, 0, out, 0, len.length);
        System.arraycopy(s, 0, out, len.length, s.length);
        return out;
    }

    private static void u32(ByteArrayOutputStream m, long v) {
        m.writeBytes(u32(v));
    }

    private static byte[] u32(long v) {
        return new byte[] {(byte) v, (byte) (v >>> 8), (byte) (v >>> 16), (byte) (v >>> 24)};
    }

    private static byte[] u64(long v) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (v >>> (8 * i));
        }
        return b;
    }
}
