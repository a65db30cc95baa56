package org.blockfilter.wallet.descriptor;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.LegacyAddress;
import org.bitcoinj.base.Network;
import org.bitcoinj.base.SegwitAddress;
import org.bitcoinj.crypto.DeterministicKey;
import org.blockfilter.wallet.keys.OutputScript;

/**
 * A parsed output script descriptor (BIP 380-386 with BIP 389 multipath) for one network.
 *
 * <p><b>Paths and indexes.</b> A descriptor describes {@link #paths()} lists of outputs: one, or as
 * many as the values of its multipath step {@code /<a;b;...>} (BIP 389). For a wallet, path 0 is
 * the receive chain and path 1 the change chain ({@code /<0;1>/*}); a descriptor without a
 * multipath step has one path, and a wallet then holds one descriptor per chain. A {@link
 * #ranged()} descriptor (a key ending in {@code /*}) has one output per index 0..2^31-1 on each
 * path; one that is not has a single output, the same at every index.
 *
 * <p><b>Contract.</b> {@link #derive(int, int)} gives, for a path and an index, the output script,
 * its address, every key with its origin (fingerprint and full derivation path, as BIP 174's
 * derivation fields want it) and the scripts a signer needs: the redeem script of {@code sh()},
 * the witness script of {@code wsh()}, the internal key (and merkle root) of {@code tr()}. The same
 * descriptor, path and index always give the same output. {@link #toString()} is the descriptor
 * without private keys, normalised (hardened steps written {@code h}) with its checksum, so it can
 * be shown, stored and exported; {@link #toPrivateString()} writes the private keys it holds.
 * {@link #parse} accepts what {@link #toString()} and {@link #toPrivateString()} write, and
 * {@code parse(d.toString())} derives the same outputs as {@code d}.
 *
 * <p>Immutable and thread-safe. Methods never return null; absent parts are empty {@link Optional}s.
 */
public final class Descriptor {
    /** The shape of the outermost script, as the wallet and a signer care about it. */
    public enum Type {
        /** {@code pk(KEY)}: bare public key. */
        PK,
        /** {@code pkh(KEY)}: P2PKH. */
        PKH,
        /** {@code wpkh(KEY)}: P2WPKH. */
        WPKH,
        /** {@code sh(wpkh(KEY))}: P2WPKH nested in P2SH. */
        SH_WPKH,
        /** {@code sh(pk|pkh|multi|sortedmulti)}: legacy P2SH. */
        SH,
        /** {@code wsh(...)}: P2WSH. */
        WSH,
        /** {@code sh(wsh(...))}: P2WSH nested in P2SH. */
        SH_WSH,
        /** {@code multi|sortedmulti} at the top level: bare multisig. */
        BARE_MULTI,
        /** {@code tr(KEY)} or {@code tr(KEY,TREE)}: P2TR. */
        TR,
        /** {@code raw(HEX)}. */
        RAW,
        /** {@code addr(ADDR)}. */
        ADDR
    }

    /** A {@code multi()} or {@code sortedmulti()} inside the descriptor: threshold, number of keys, sorted or not. */
    public record Multisig(int threshold, int keys, boolean sorted) {}

    private final Expr root;
    private final Network network;
    private final int paths;

    private Descriptor(Expr root, Network network) {
        this.root = root;
        this.network = network;
        int p = 1;
        for (DescriptorKey k : root.keys()) {
            int n = k.paths();
            if (n > 1 && p > 1 && n != p) {
                throw new DescriptorException("multipath steps of different lengths (" + p + " and " + n
                        + " values): every <a;b;...> in a descriptor must have the same number of values (BIP 389)");
            }
            p = Math.max(p, n);
        }
        this.paths = p;
        if (root instanceof Expr.Sh) {
            Expr.Derivation d = new Expr.Derivation();
            root.script(0, 0, d);
            if (d.redeemScript.length > DescriptorParser.MAX_REDEEM_SCRIPT_BYTES) {
                throw new DescriptorException("sh() redeem script is " + d.redeemScript.length + " bytes, more than"
                        + " the " + DescriptorParser.MAX_REDEEM_SCRIPT_BYTES + " bytes P2SH allows");
            }
        }
    }

    /**
     * Parses {@code text} strictly for {@code network}. The checksum ({@code #} and 8 characters)
     * is optional; when given it must be right. Every key must belong to {@code network} (xpub/xprv
     * and WIF {@code K}/{@code L}/{@code 5} on mainnet; tpub/tprv and {@code c}/{@code 9} on
     * testnet, signet and regtest), and an {@code addr()} address too. Anything wrong is a {@link
     * DescriptorException} whose message names it: a bad checksum, an unknown or unsupported
     * function, a function where it is not allowed, a hardened step after an extended public key,
     * a key of another network, an uncompressed key under segwit, a multisig threshold or key count
     * out of range, malformed key origins and multipath steps.
     */
    public static Descriptor parse(String text, Network network) {
        if (text == null) {
            throw new DescriptorException("no descriptor given");
        }
        String body = DescriptorChecksum.strip(text.strip());
        return new Descriptor(DescriptorParser.parse(body, network), network);
    }

    /**
     * The descriptor of one wallet account: {@code type} wrapping the account key as
     * {@code [origin]key/<0;1>/*}. {@code type} is {@link Type#PKH}, {@link Type#WPKH}, {@link
     * Type#SH_WPKH} or {@link Type#TR}; the key keeps its private part if it has one.
     */
    public static Descriptor singleKeyAccount(
            Type type, KeyOrigin origin, DeterministicKey accountKey, Network network) {
        DescriptorKey key = DescriptorKey.account(origin, accountKey, network);
        Expr root = switch (type) {
            case PKH -> new Expr.Pkh(key);
            case WPKH -> new Expr.Wpkh(key);
            case SH_WPKH -> new Expr.Sh(new Expr.Wpkh(key));
            case TR -> new Expr.Tr(key, null);
            default -> throw new IllegalArgumentException("not a single-key account type: " + type);
        };
        return new Descriptor(root, network);
    }

    /** The network the descriptor's keys and addresses belong to. */
    public Network network() {
        return network;
    }

    /**
     * The descriptor's top-level form ({@code pkh}, {@code wpkh}, {@code sh(wpkh)}, {@code tr}, {@code
     * wsh(sortedmulti)}, ...).
     */
    public Type type() {
        if (root instanceof Expr.Pk) {
            return Type.PK;
        }
        if (root instanceof Expr.Pkh) {
            return Type.PKH;
        }
        if (root instanceof Expr.Wpkh) {
            return Type.WPKH;
        }
        if (root instanceof Expr.Sh sh) {
            return sh.inner() instanceof Expr.Wpkh
                    ? Type.SH_WPKH
                    : sh.inner() instanceof Expr.Wsh ? Type.SH_WSH : Type.SH;
        }
        if (root instanceof Expr.Wsh) {
            return Type.WSH;
        }
        if (root instanceof Expr.Multi) {
            return Type.BARE_MULTI;
        }
        if (root instanceof Expr.Tr) {
            return Type.TR;
        }
        return ((Expr.Fixed) root).function().equals("raw") ? Type.RAW : Type.ADDR;
    }

    /** The {@code multi()}/{@code sortedmulti()} inside, if the descriptor is a multisig. */
    public Optional<Multisig> multisig() {
        Expr e = root;
        while (true) {
            if (e instanceof Expr.Sh sh) {
                e = sh.inner();
            } else if (e instanceof Expr.Wsh wsh) {
                e = wsh.inner();
            } else {
                break;
            }
        }
        return e instanceof Expr.Multi m
                ? Optional.of(new Multisig(m.threshold(), m.keyList().size(), m.sorted()))
                : Optional.empty();
    }

    /** How many paths the descriptor has: 1, or the number of values of its multipath steps. */
    public int paths() {
        return paths;
    }

    /** Whether some key ends in a wildcard, so there is one output per index. */
    public boolean ranged() {
        return root.keys().stream().anyMatch(k -> k.wildcard() != DescriptorKey.Wildcard.NONE);
    }

    /** Whether some key is written with its private key (xprv/tprv or WIF). */
    public boolean hasPrivateKeys() {
        return root.keys().stream().anyMatch(DescriptorKey::hasPrivateKey);
    }

    /** The key expressions, in the order written. */
    public List<DescriptorKey> keys() {
        return root.keys();
    }

    /**
     * The output at {@code path} (0 ≤ path &lt; {@link #paths()}) and {@code index} (0 ≤ index ≤
     * 2^31-1; ignored when not {@link #ranged()}). A hardened wildcard needs the private key the
     * descriptor then holds.
     */
    public DescriptorOutput derive(int path, int index) {
        if (path < 0 || path >= paths) {
            throw new IllegalArgumentException("path " + path + " is outside 0.." + (paths - 1));
        }
        if (index < 0) {
            throw new IllegalArgumentException("index must be in 0..2147483647, got " + index);
        }
        Expr.Derivation d = new Expr.Derivation();
        OutputScript script = OutputScript.of(root.script(path, index, d));
        return new DescriptorOutput(
                script, address(script.bytes()), d.keys, d.redeemScript, d.witnessScript, d.internalKey, d.merkleRoot);
    }

    /** The descriptors of each path alone (BIP 389's expansion); a descriptor without multipath gives itself. */
    public List<Descriptor> singlePaths() {
        if (paths == 1) {
            return List.of(this);
        }
        List<Descriptor> out = new ArrayList<>();
        for (int p = 0; p < paths; p++) {
            out.add(new Descriptor(single(root, p), network));
        }
        return out;
    }

    /**
     * The same descriptor without private keys (BIP 380's normalisation of hardened steps); a
     * {@link DescriptorException} when there is none (a hardened wildcard needs the private key).
     */
    public Descriptor publicOnly() {
        return hasPrivateKeys() ? parse(DescriptorChecksum.append(root.text(false)), network) : this;
    }

    /** The descriptor with its private keys, with checksum. Write it only where the user asked for it. */
    public String toPrivateString() {
        return DescriptorChecksum.append(root.text(true));
    }

    /**
     * The descriptor without private keys, with checksum (see the class comment). A descriptor
     * whose public form cannot be written (a private key ending in a hardened wildcard {@code *h})
     * gives its type and that reason instead, never its private keys.
     */
    @Override
    public String toString() {
        try {
            return DescriptorChecksum.append(root.text(false));
        } catch (DescriptorException e) {
            return type() + " descriptor with private keys (" + e.getMessage() + ")";
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Descriptor d && d.toPrivateString().equals(toPrivateString());
    }

    @Override
    public int hashCode() {
        return toString().hashCode();
    }

    private Address address(byte[] script) {
        Type t = type();
        return switch (t) {
            case PKH -> LegacyAddress.fromPubKeyHash(network, java.util.Arrays.copyOfRange(script, 3, 23));
            case SH, SH_WPKH, SH_WSH ->
                LegacyAddress.fromScriptHash(network, java.util.Arrays.copyOfRange(script, 2, 22));
            case WPKH, WSH ->
                SegwitAddress.fromProgram(network, 0, java.util.Arrays.copyOfRange(script, 2, script.length));
            case TR -> SegwitAddress.fromProgram(network, 1, java.util.Arrays.copyOfRange(script, 2, 34));
            case ADDR -> org.blockfilter.wallet.keys.AddressDecoder.decode(((Expr.Fixed) root).argument(), network);
            default -> null;
        };
    }

    private static Expr single(Expr e, int p) {
        if (e instanceof Expr.Pk x) {
            return new Expr.Pk(x.key().single(p), x.xOnly());
        }
        if (e instanceof Expr.Pkh x) {
            return new Expr.Pkh(x.key().single(p));
        }
        if (e instanceof Expr.Wpkh x) {
            return new Expr.Wpkh(x.key().single(p));
        }
        if (e instanceof Expr.Sh x) {
            return new Expr.Sh(single(x.inner(), p));
        }
        if (e instanceof Expr.Wsh x) {
            return new Expr.Wsh(single(x.inner(), p));
        }
        if (e instanceof Expr.Multi x) {
            return new Expr.Multi(
                    x.threshold(), x.keyList().stream().map(k -> k.single(p)).toList(), x.sorted());
        }
        if (e instanceof Expr.Tr x) {
            return new Expr.Tr(x.key().single(p), x.tree() == null ? null : single(x.tree(), p));
        }
        return e;
    }

    private static Expr.Tree single(Expr.Tree t, int p) {
        return t.leaf() != null
                ? new Expr.Tree(single(t.leaf(), p), null, null)
                : new Expr.Tree(null, single(t.left(), p), single(t.right(), p));
    }
}
