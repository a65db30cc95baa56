package org.blockfilter.filters.bloom.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads raw script bytes as Bitcoin Core does for BIP 37 matching. Stateless and thread-safe.
 *
 * <p>Core walks a script with {@code GetOp} and stops at the first malformed push, keeping the
 * pushes before it; bitcoinj's {@code Script} parser throws on such scripts instead, and reports
 * {@code OP_1..OP_16} as "push data" with a null payload. Reading the bytes here keeps matching exact
 * and crash-free on any script.
 */
public final class CoreScripts {
    private static final int OP_PUSHDATA1 = 0x4c;
    private static final int OP_PUSHDATA2 = 0x4d;
    private static final int OP_PUSHDATA4 = 0x4e;
    private static final int OP_1 = 0x51;
    private static final int OP_16 = 0x60;
    private static final int OP_CHECKSIG = 0xac;
    private static final int OP_CHECKMULTISIG = 0xae;
    private static final int MAX_PUBKEYS_PER_MULTISIG = 20;

    private CoreScripts() {}

    /** One parsed op: opcode and its pushed data (empty for non-push ops). */
    public record Op(int opcode, byte[] data) {}

    /** The ops of {@code script} up to the first malformed one (Core's {@code GetOp} loop with {@code break}). */
    public static List<Op> ops(byte[] script) {
        List<Op> out = new ArrayList<>();
        int pc = 0;
        while (pc < script.length) {
            int opcode = script[pc++] & 0xff;
            long size = 0;
            if (opcode < OP_PUSHDATA1) {
                size = opcode;
            } else if (opcode == OP_PUSHDATA1) {
                if (script.length - pc < 1) {
                    break;
                }
                size = script[pc] & 0xff;
                pc += 1;
            } else if (opcode == OP_PUSHDATA2) {
                if (script.length - pc < 2) {
                    break;
                }
                size = (script[pc] & 0xff) | (script[pc + 1] & 0xff) << 8;
                pc += 2;
            } else if (opcode == OP_PUSHDATA4) {
                if (script.length - pc < 4) {
                    break;
                }
                size = (script[pc] & 0xffL)
                        | (script[pc + 1] & 0xffL) << 8
                        | (script[pc + 2] & 0xffL) << 16
                        | (script[pc + 3] & 0xffL) << 24;
                pc += 4;
            }
            if (script.length - pc < size) {
                break;
            }
            byte[] data = new byte[(int) size];
            System.arraycopy(script, pc, data, 0, (int) size);
            pc += (int) size;
            out.add(new Op(opcode, data));
        }
        return out;
    }

    /** The non-empty data pushes of {@code script}, in order (what BIP 37 tests against the filter). */
    public static List<byte[]> dataPushes(byte[] script) {
        List<byte[]> out = new ArrayList<>();
        for (Op op : ops(script)) {
            if (op.data().length != 0) {
                out.add(op.data());
            }
        }
        return out;
    }

    /** Core's {@code Solver} result is PUBKEY or MULTISIG: the cases {@code BLOOM_UPDATE_P2PUBKEY_ONLY} updates on. */
    public static boolean isPayToPubkeyOrMultisig(byte[] script) {
        return isPayToPubkey(script) || isMultisig(script);
    }

    static boolean isPayToPubkey(byte[] s) {
        if (s.length == 35 && s[0] == 33 && (s[34] & 0xff) == OP_CHECKSIG) {
            return validPubKeySize(s, 1, 33);
        }
        if (s.length == 67 && s[0] == 65 && (s[66] & 0xff) == OP_CHECKSIG) {
            return validPubKeySize(s, 1, 65);
        }
        return false;
    }

    static boolean isMultisig(byte[] s) {
        if (s.length < 1 || (s[s.length - 1] & 0xff) != OP_CHECKMULTISIG) {
            return false;
        }
        // Core's MatchMultisig: ops must cover the script exactly; GetOp failing stops the walk.
        List<Op> ops = ops(s);
        int consumed = 0;
        for (Op op : ops) {
            consumed += encodedLength(op);
        }
        if (consumed != s.length || ops.size() < 3) {
            return false;
        }
        int required = smallNumber(ops.get(0), 1);
        if (required < 0) {
            return false;
        }
        int i = 1;
        int keys = 0;
        while (i < ops.size() && validPubKey(ops.get(i).data())) {
            keys++;
            i++;
        }
        if (i != ops.size() - 2) {
            return false;
        }
        int n = smallNumber(ops.get(i), required);
        return n >= 0 && n == keys;
    }

    private static int encodedLength(Op op) {
        int len = op.data().length;
        switch (op.opcode()) {
            case OP_PUSHDATA1:
                return 2 + len;
            case OP_PUSHDATA2:
                return 3 + len;
            case OP_PUSHDATA4:
                return 5 + len;
            default:
                return 1 + len;
        }
    }

    /** Core's GetScriptNumber for multisig counts: OP_1..OP_16 or a minimal one-byte push, in [min, 20]; -1 otherwise. */
    private static int smallNumber(Op op, int min) {
        int value;
        if (op.opcode() >= OP_1 && op.opcode() <= OP_16) {
            value = op.opcode() - OP_1 + 1;
        } else if (op.opcode() == 1
                && op.data().length == 1
                && (op.data()[0] & 0xff) > 16
                && (op.data()[0] & 0x80) == 0) {
            value = op.data()[0];
        } else {
            return -1;
        }
        return value >= min && value <= MAX_PUBKEYS_PER_MULTISIG ? value : -1;
    }

    private static boolean validPubKey(byte[] k) {
        return k.length > 0 && validPubKeySize(k, 0, k.length);
    }

    private static boolean validPubKeySize(byte[] s, int off, int len) {
        int header = s[off] & 0xff;
        int expected = header == 2 || header == 3 ? 33 : header == 4 || header == 6 || header == 7 ? 65 : 0;
        return expected != 0 && expected == len;
    }
}
