package org.blockfilter.wallet.psbt;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.ProtocolException;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutPoint;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.crypto.TransactionSignature;
import org.bouncycastle.crypto.digests.RIPEMD160Digest;

/**
 * The checks of each BIP 174/371 field's key data and value, as the BIPs define them. A failure
 * names the map, the field and the offset of the key or value. Stateless.
 */
final class PsbtValues {
    private PsbtValues() {}

    static void check(PsbtField f, String where, byte[] key, byte[] value, int keyAt, int valueAt) {
        String name = where + ": " + f.spec();
        switch (f.keyData()) {
            case V2_ONLY ->
                throw new PsbtFormatException(
                        name + " is a BIP 370 (version 2) field, not allowed in a version 0 PSBT", keyAt);
            case NONE -> keyLength(name, key, keyAt, 0);
            case XPUB -> keyLength(name, key, keyAt, 78);
            case XONLY -> keyLength(name, key, keyAt, 32);
            case XONLY_AND_LEAF -> keyLength(name, key, keyAt, 64);
            case HASH20 -> keyLength(name, key, keyAt, 20);
            case HASH32 -> keyLength(name, key, keyAt, 32);
            case PUBKEY -> publicKey(name, key, keyAt);
            case CONTROL_BLOCK -> {
                if (key.length < 33 || (key.length - 33) % 32 != 0 || (key.length - 33) / 32 > 128) {
                    throw new PsbtFormatException(
                            name + " key is a control block of " + key.length
                                    + " bytes; BIP 341 allows 33 + 32m, m <= 128",
                            keyAt);
                }
            }
            case PROPRIETARY -> {
                PsbtCursor c = new PsbtCursor(key, keyAt + 1);
                int idLength = c.checkLength(c.compactSize(name + " identifier length"), name + " identifier");
                c.bytes(idLength, name + " identifier");
                c.compactSize(name + " subtype");
            }
        }
        PsbtCursor v = new PsbtCursor(value, valueAt);
        switch (f) {
            case GLOBAL_XPUB -> derivation(name, v, value.length, key[4] & 0xff);
            case GLOBAL_VERSION -> {
                long version = exactly(name, v, value, 4).u32(name);
                if (version != 0) {
                    throw new PsbtFormatException(
                            "PSBT version " + version + " is not supported: this wallet reads version 0 (BIP 174)",
                            valueAt);
                }
            }
            case IN_WITNESS_UTXO -> {
                long amount = v.u64(name + " amount");
                if (amount < 0 || amount > org.bitcoinj.base.BitcoinNetwork.MAX_MONEY.value) {
                    throw new PsbtFormatException(name + " amount " + amount + " is out of range", valueAt);
                }
                int n = v.checkLength(v.compactSize(name + " script length"), name + " script");
                v.bytes(n, name + " script");
                end(name, v);
            }
            case IN_PARTIAL_SIG -> {
                if (!TransactionSignature.isEncodingCanonical(value)) {
                    throw new PsbtFormatException(name + " value is not a DER signature with a sighash byte", valueAt);
                }
            }
            case IN_SIGHASH_TYPE -> exactly(name, v, value, 4);
            case IN_BIP32_DERIVATION, OUT_BIP32_DERIVATION -> derivation(name, v, value.length, -1);
            case IN_FINAL_SCRIPTWITNESS -> {
                long items = v.compactSize(name + " item count");
                for (long i = 0; i < items; i++) {
                    v.bytes(v.checkLength(v.compactSize(name + " item length"), name + " item"), name + " item");
                }
                end(name, v);
            }
            case IN_RIPEMD160 -> preimage(name, key, ripemd160(value), valueAt);
            case IN_SHA256 -> preimage(name, key, Sha256Hash.hash(value), valueAt);
            case IN_HASH160 -> preimage(name, key, ripemd160(Sha256Hash.hash(value)), valueAt);
            case IN_HASH256 -> preimage(name, key, Sha256Hash.hashTwice(value), valueAt);
            case IN_TAP_KEY_SIG, IN_TAP_SCRIPT_SIG -> {
                if (value.length != 64 && value.length != 65) {
                    throw new PsbtFormatException(
                            name + " value is " + value.length + " bytes, a BIP 340 signature is 64 or 65", valueAt);
                }
            }
            case IN_TAP_LEAF_SCRIPT -> {
                if (value.length < 1) {
                    throw new PsbtFormatException(name + " value has no leaf version", valueAt);
                }
            }
            case IN_TAP_BIP32_DERIVATION, OUT_TAP_BIP32_DERIVATION -> {
                long hashes = v.compactSize(name + " leaf hash count");
                v.bytes(v.checkLength(hashes * 32, name + " leaf hashes"), name + " leaf hashes");
                derivation(name, v, v.remaining(), -1);
            }
            case IN_TAP_INTERNAL_KEY, IN_TAP_MERKLE_ROOT, OUT_TAP_INTERNAL_KEY -> exactly(name, v, value, 32);
            case OUT_TAP_TREE -> tapTree(name, v);
            default -> {
                // The other fields are free-form bytes (scripts, transactions, commitments), checked where they are
                // used.
            }
        }
    }

    /** The global unsigned transaction: BIP 174 requires the serialization without witnesses and empty scriptSigs. */
    static Transaction unsignedTx(byte[] raw, int offset) {
        String name = "global map: " + PsbtField.GLOBAL_UNSIGNED_TX.spec();
        Transaction tx;
        try {
            tx = legacy(new PsbtCursor(raw, offset), name);
        } catch (PsbtFormatException e) {
            if (raw.length > 6 && raw[4] == 0 && raw[5] == 1) {
                throw new PsbtFormatException(
                        name + " is in the witness serialization; BIP 174 requires the serialization without witnesses",
                        offset + 4);
            }
            throw e;
        }
        for (TransactionInput in : tx.getInputs()) {
            if (in.getScriptBytes().length > 0) {
                throw new PsbtFormatException(
                        name + ": input " + in.getIndex() + " has a scriptSig; an unsigned transaction's must be empty",
                        offset);
            }
        }
        return tx;
    }

    /** A transaction in either serialization, with no byte left over. */
    static Transaction transaction(byte[] raw, String name, int offset) {
        ByteBuffer b = ByteBuffer.wrap(raw);
        try {
            Transaction tx = Transaction.read(b);
            if (b.hasRemaining()) {
                throw new PsbtFormatException(
                        name + ": " + b.remaining() + " byte(s) after the transaction", offset + b.position());
            }
            return tx;
        } catch (PsbtFormatException e) {
            throw e;
        } catch (ProtocolException
                | java.nio.BufferUnderflowException
                | IllegalArgumentException
                | ArithmeticException e) {
            throw new PsbtFormatException(name + " is not a transaction: " + e, offset);
        }
    }

    private static Transaction legacy(PsbtCursor c, String name) {
        Transaction tx = new Transaction();
        tx.setVersion((int) c.u32(name + " version"));
        long inputs = c.compactSize(name + " input count");
        for (long i = 0; i < inputs; i++) {
            byte[] hash = c.bytes(32, name + " outpoint");
            long index = c.u32(name + " outpoint index");
            byte[] script =
                    c.bytes(c.checkLength(c.compactSize(name + " scriptSig length"), name + " scriptSig"), name);
            long sequence = c.u32(name + " sequence");
            TransactionOutPoint op = new TransactionOutPoint(index, Sha256Hash.wrapReversed(hash));
            tx.addInput(new TransactionInput(tx, script, op).withSequence(sequence));
        }
        long outputs = c.compactSize(name + " output count");
        for (long i = 0; i < outputs; i++) {
            int at = c.position();
            long value = c.u64(name + " output amount");
            if (value < 0 || value > org.bitcoinj.base.BitcoinNetwork.MAX_MONEY.value) {
                throw new PsbtFormatException(name + ": output " + i + " amount " + value + " is out of range", at);
            }
            byte[] script = c.bytes(c.checkLength(c.compactSize(name + " script length"), name + " script"), name);
            tx.addOutput(new TransactionOutput(tx, Coin.valueOf(value), script));
        }
        tx.setLockTime(c.u32(name + " locktime"));
        end(name, c);
        return tx;
    }

    private static void keyLength(String name, byte[] key, int at, int expected) {
        if (key.length != expected) {
            throw new PsbtFormatException(
                    name + " key has " + key.length + " byte(s) of key data, expected "
                            + (expected == 0 ? "none" : String.valueOf(expected)),
                    at);
        }
    }

    private static void publicKey(String name, byte[] key, int at) {
        boolean shape = (key.length == 33 && (key[0] == 2 || key[0] == 3)) || (key.length == 65 && key[0] == 4);
        if (shape) {
            try {
                ECKey.fromPublicOnly(key);
                return;
            } catch (IllegalArgumentException e) {
                // falls through to the error below: not a point on the curve
            }
        }
        throw new PsbtFormatException(
                name + " key holds " + key.length
                        + " byte(s) that are not a public key (33 compressed or 65 uncompressed)",
                at);
    }

    /** {@code <4-byte fingerprint> <4-byte index>*}, {@code depth} indexes when known (-1: any). */
    private static void derivation(String name, PsbtCursor v, int length, int depth) {
        if (length < 4 || length % 4 != 0 || (depth >= 0 && length != 4 + 4 * depth)) {
            throw new PsbtFormatException(
                    name + " value of " + length + " bytes is not a fingerprint and "
                            + (depth >= 0 ? depth + " path element(s)" : "4-byte path elements"),
                    v.position());
        }
        v.bytes(length, name);
        end(name, v);
    }

    private static PsbtCursor exactly(String name, PsbtCursor v, byte[] value, int n) {
        if (value.length != n) {
            throw new PsbtFormatException(name + " value is " + value.length + " bytes, expected " + n, v.position());
        }
        return v;
    }

    private static void end(String name, PsbtCursor c) {
        if (c.remaining() > 0) {
            throw new PsbtFormatException(name + ": " + c.remaining() + " byte(s) left over", c.position());
        }
    }

    private static void preimage(String name, byte[] hash, byte[] computed, int at) {
        if (!Arrays.equals(hash, computed)) {
            throw new PsbtFormatException(name + " value is not a preimage of its key", at);
        }
    }

    /** BIP 371: leaves in depth-first order that make one complete binary tree (Core's TaprootBuilder rules). */
    private static void tapTree(String name, PsbtCursor v) {
        java.util.List<Boolean> branch = new java.util.ArrayList<>();
        boolean any = false;
        while (v.remaining() > 0) {
            int at = v.position();
            int depth = v.u8(name + " depth");
            int leafVersion = v.u8(name + " leaf version");
            v.bytes(v.checkLength(v.compactSize(name + " script length"), name + " script"), name + " script");
            if (depth > 128) {
                throw new PsbtFormatException(name + ": leaf depth " + depth + " exceeds BIP 341's 128", at);
            }
            if ((leafVersion & 0x01) != 0) {
                throw new PsbtFormatException(
                        name + ": leaf version 0x" + Integer.toHexString(leafVersion) + " is odd", at);
            }
            if (!insertLeaf(branch, depth)) {
                throw new PsbtFormatException(name + ": leaf at depth " + depth + " does not fit the tree so far", at);
            }
            any = true;
        }
        if (!any || !(branch.size() == 1 && branch.get(0))) {
            throw new PsbtFormatException(name + " is not a complete tree", v.position());
        }
    }

    private static boolean insertLeaf(java.util.List<Boolean> branch, int depth) {
        if (depth + 1 < branch.size()) {
            return false;
        }
        while (branch.size() > depth && branch.get(depth)) {
            branch.remove(branch.size() - 1);
            if (depth == 0) {
                return false;
            }
            depth--;
        }
        while (branch.size() <= depth) {
            branch.add(false);
        }
        branch.set(depth, true);
        return true;
    }

    static byte[] ripemd160(byte[] data) {
        RIPEMD160Digest d = new RIPEMD160Digest();
        d.update(data, 0, data.length);
        byte[] out = new byte[20];
        d.doFinal(out, 0);
        return out;
    }
}
