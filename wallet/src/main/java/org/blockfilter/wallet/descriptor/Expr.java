package org.blockfilter.wallet.descriptor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.crypto.internal.CryptoUtils;
import org.bitcoinj.script.ScriptBuilder;
import org.bitcoinj.script.ScriptOpCodes;
import org.blockfilter.wallet.keys.Taproot;

/** The parsed tree of a descriptor; each node builds its script for one path and index. Immutable. */
sealed interface Expr {
    /** The script this node produces and, through {@code out}, the keys and sub-scripts a signer needs. */
    byte[] script(int path, int index, Derivation out);

    /** The node as descriptor text. */
    String text(boolean withPrivate);

    /** Every key under this node, in the order written. */
    List<DescriptorKey> keys();

    /** What a derivation collects beside the script. */
    final class Derivation {
        final List<DerivedKey> keys = new ArrayList<>();
        byte[] redeemScript;
        byte[] witnessScript;
        byte[] internalKey;
        byte[] merkleRoot;
    }

    record Pk(DescriptorKey key, boolean xOnly) implements Expr {
        public byte[] script(int path, int index, Derivation out) {
            DerivedKey k = key.derive(path, index);
            out.keys.add(k);
            return new ScriptBuilder()
                    .data(xOnly ? k.xOnly() : k.publicKey())
                    .op(ScriptOpCodes.OP_CHECKSIG)
                    .build()
                    .program();
        }

        public String text(boolean p) {
            return "pk(" + key.text(p) + ")";
        }

        public List<DescriptorKey> keys() {
            return List.of(key);
        }
    }

    record Pkh(DescriptorKey key) implements Expr {
        public byte[] script(int path, int index, Derivation out) {
            DerivedKey k = key.derive(path, index);
            out.keys.add(k);
            return ScriptBuilder.createP2PKHOutputScript(CryptoUtils.sha256hash160(k.publicKey()))
                    .program();
        }

        public String text(boolean p) {
            return "pkh(" + key.text(p) + ")";
        }

        public List<DescriptorKey> keys() {
            return List.of(key);
        }
    }

    record Wpkh(DescriptorKey key) implements Expr {
        public byte[] script(int path, int index, Derivation out) {
            DerivedKey k = key.derive(path, index);
            out.keys.add(k);
            return ScriptBuilder.createP2WPKHOutputScript(CryptoUtils.sha256hash160(k.publicKey()))
                    .program();
        }

        public String text(boolean p) {
            return "wpkh(" + key.text(p) + ")";
        }

        public List<DescriptorKey> keys() {
            return List.of(key);
        }
    }

    record Multi(int threshold, List<DescriptorKey> keyList, boolean sorted) implements Expr {
        public byte[] script(int path, int index, Derivation out) {
            List<byte[]> pubs = new ArrayList<>();
            for (DescriptorKey key : keyList) {
                DerivedKey k = key.derive(path, index);
                out.keys.add(k);
                pubs.add(k.publicKey());
            }
            if (sorted) {
                pubs.sort(Arrays::compareUnsigned);
            }
            ScriptBuilder b = new ScriptBuilder().number(threshold);
            pubs.forEach(b::data);
            return b.number(pubs.size())
                    .op(ScriptOpCodes.OP_CHECKMULTISIG)
                    .build()
                    .program();
        }

        public String text(boolean p) {
            StringBuilder b = new StringBuilder(sorted ? "sortedmulti(" : "multi(").append(threshold);
            keyList.forEach(k -> b.append(',').append(k.text(p)));
            return b.append(')').toString();
        }

        public List<DescriptorKey> keys() {
            return keyList;
        }
    }

    record Sh(Expr inner) implements Expr {
        public byte[] script(int path, int index, Derivation out) {
            byte[] redeem = inner.script(path, index, out);
            out.redeemScript = redeem;
            return ScriptBuilder.createP2SHOutputScript(CryptoUtils.sha256hash160(redeem))
                    .program();
        }

        public String text(boolean p) {
            return "sh(" + inner.text(p) + ")";
        }

        public List<DescriptorKey> keys() {
            return inner.keys();
        }
    }

    record Wsh(Expr inner) implements Expr {
        public byte[] script(int path, int index, Derivation out) {
            byte[] ws = inner.script(path, index, out);
            out.witnessScript = ws;
            return ScriptBuilder.createP2WSHOutputScript(Sha256Hash.hash(ws)).program();
        }

        public String text(boolean p) {
            return "wsh(" + inner.text(p) + ")";
        }

        public List<DescriptorKey> keys() {
            return inner.keys();
        }
    }

    /** A BIP 386 script tree: a leaf script or a pair of trees. */
    record Tree(Expr leaf, Tree left, Tree right) {
        /** BIP 341's TapLeaf / TapBranch hash of this tree. */
        byte[] hash(int path, int index, Derivation out) {
            if (leaf != null) {
                byte[] s = leaf.script(path, index, out);
                byte[] msg = new byte[1 + compactSizeLength(s.length) + s.length];
                msg[0] = (byte) 0xc0; // BIP 342 tapscript leaf version
                int at = writeCompactSize(msg, 1, s.length);
                System.arraycopy(s, 0, msg, at, s.length);
                return Taproot.taggedHash("TapLeaf", msg);
            }
            byte[] a = left.hash(path, index, out);
            byte[] b = right.hash(path, index, out);
            if (Arrays.compareUnsigned(a, b) > 0) {
                byte[] t = a;
                a = b;
                b = t;
            }
            byte[] msg = Arrays.copyOf(a, 64);
            System.arraycopy(b, 0, msg, 32, 32);
            return Taproot.taggedHash("TapBranch", msg);
        }

        String text(boolean p) {
            return leaf != null ? leaf.text(p) : "{" + left.text(p) + "," + right.text(p) + "}";
        }

        void keys(List<DescriptorKey> into) {
            if (leaf != null) {
                into.addAll(leaf.keys());
            } else {
                left.keys(into);
                right.keys(into);
            }
        }

        private static int compactSizeLength(int n) {
            return n < 0xfd ? 1 : n <= 0xffff ? 3 : 5;
        }

        private static int writeCompactSize(byte[] b, int at, int n) {
            if (n < 0xfd) {
                b[at] = (byte) n;
                return at + 1;
            }
            if (n <= 0xffff) {
                b[at] = (byte) 0xfd;
                b[at + 1] = (byte) n;
                b[at + 2] = (byte) (n >> 8);
                return at + 3;
            }
            b[at] = (byte) 0xfe;
            for (int i = 0; i < 4; i++) {
                b[at + 1 + i] = (byte) (n >> (8 * i));
            }
            return at + 5;
        }
    }

    record Tr(DescriptorKey key, Tree tree) implements Expr {
        public byte[] script(int path, int index, Derivation out) {
            DerivedKey k = key.derive(path, index);
            out.keys.add(k);
            byte[] internal = k.xOnly();
            byte[] root = tree == null ? null : tree.hash(path, index, out);
            out.internalKey = internal;
            out.merkleRoot = root;
            return new ScriptBuilder()
                    .smallNum(1)
                    .data(Taproot.outputKey(internal, root))
                    .build()
                    .program();
        }

        public String text(boolean p) {
            return "tr(" + key.text(p) + (tree == null ? "" : "," + tree.text(p)) + ")";
        }

        public List<DescriptorKey> keys() {
            List<DescriptorKey> all = new ArrayList<>(List.of(key));
            if (tree != null) {
                tree.keys(all);
            }
            return all;
        }
    }

    /** {@code raw(HEX)}: the script as given. {@code addr(ADDR)}: the address's script, written as given. */
    record Fixed(String function, String argument, byte[] bytes) implements Expr {
        public byte[] script(int path, int index, Derivation out) {
            return bytes.clone();
        }

        public String text(boolean p) {
            return function + "(" + argument + ")";
        }

        public List<DescriptorKey> keys() {
            return List.of();
        }
    }
}
