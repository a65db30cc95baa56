package org.blockfilter.wallet.descriptor;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Network;
import org.bitcoinj.crypto.ChildNumber;
import org.bitcoinj.crypto.DeterministicKey;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.crypto.HDKeyDerivation;

/**
 * One key expression of a descriptor (BIP 380, BIP 389): an optional origin, then a hex public key
 * (compressed, uncompressed, or x-only inside {@code tr()}), a WIF private key, or an extended key
 * (xpub/xprv, tpub/tprv) with derivation steps, at most one multipath step {@code <a;b;...>} and
 * an optional final wildcard {@code *} or {@code *h}. Immutable; thread-safe: the extended key's
 * parent for each path is derived once, at construction.
 */
public final class DescriptorKey {
    /** How a key ends: fixed, {@code /*}, or {@code /*h}. */
    public enum Wildcard {
        /** A single key, or an extended key whose path has no wildcard: one output. */
        NONE,
        /** {@code /*}: one unhardened child per index, so the xpub alone derives every output. */
        UNHARDENED,
        /** {@code /*h}: hardened children, which only the private key can derive. */
        HARDENED
    }

    private final KeyOrigin origin;
    private final ECKey fixed;
    private final boolean xOnlyText;
    private final DeterministicKey extended;
    /** Each step's choices: one value, or a BIP 389 tuple. */
    private final List<List<ChildNumber>> steps;

    private final Wildcard wildcard;
    private final Network network;
    /** For each path, the key after every step (before the wildcard). */
    private final List<DeterministicKey> parents;

    DescriptorKey(
            KeyOrigin origin,
            ECKey fixed,
            boolean xOnlyText,
            DeterministicKey extended,
            List<List<ChildNumber>> steps,
            Wildcard wildcard,
            Network network) {
        this.origin = origin;
        this.fixed = fixed;
        this.xOnlyText = xOnlyText;
        this.extended = extended;
        this.steps = steps.stream().map(List::copyOf).toList();
        this.wildcard = wildcard;
        this.network = network;
        List<DeterministicKey> p = new ArrayList<>();
        if (extended != null) {
            for (int path = 0; path < paths(); path++) {
                DeterministicKey k = extended;
                for (ChildNumber c : path(path)) {
                    k = HDKeyDerivation.deriveChildKey(k, c);
                }
                p.add(k);
            }
        }
        this.parents = List.copyOf(p);
    }

    /** A key from an extended key (public or private) with its origin (may be null), steps and wildcard. */
    public static DescriptorKey extended(
            KeyOrigin origin, DeterministicKey key, List<List<ChildNumber>> steps, Wildcard wildcard, Network network) {
        return new DescriptorKey(origin, null, false, key, steps, wildcard, network);
    }

    /** The account key of a wallet: {@code [origin]xpub/<0;1>/*} (or xprv when {@code key} has its private key). */
    public static DescriptorKey account(KeyOrigin origin, DeterministicKey key, Network network) {
        return extended(origin, key, List.of(List.of(ChildNumber.ZERO, ChildNumber.ONE)), Wildcard.UNHARDENED, network);
    }

    /**
     * The public half of {@code key} as a key of its own: same depth, parent fingerprint and child
     * number (bitcoinj's {@code dropParent()} loses them, and {@code dropPrivateBytes()} keeps a
     * parent that can still derive the private key).
     */
    public static DeterministicKey publicKeyOf(DeterministicKey key, Network network) {
        return DeterministicKey.deserializeB58(key.serializePubB58(network), network);
    }

    static String name(Network network) {
        return network instanceof BitcoinNetwork b ? b.toString() : network.id();
    }

    static String abbreviate(String s) {
        return s.length() <= 24 ? s : s.substring(0, 12) + "..." + s.substring(s.length() - 8);
    }

    /** How many paths a BIP 389 multipath step gives this key (1 without one). */
    public int paths() {
        for (List<ChildNumber> s : steps) {
            if (s.size() > 1) {
                return s.size();
            }
        }
        return 1;
    }

    /** The steps after the extended key for {@code path} (the multipath step's value at that position), without the wildcard. */
    public List<ChildNumber> path(int path) {
        List<ChildNumber> out = new ArrayList<>();
        for (List<ChildNumber> s : steps) {
            out.add(s.size() == 1 ? s.get(0) : s.get(path));
        }
        return out;
    }

    /** Whether and how the key's path ends in a wildcard. */
    public Wildcard wildcard() {
        return wildcard;
    }

    /** The origin as written, if any. */
    public Optional<KeyOrigin> origin() {
        return Optional.ofNullable(origin);
    }

    /** The extended key as written (with its private key when written as xprv/tprv); empty for a single key. */
    public Optional<DeterministicKey> extendedKey() {
        return Optional.ofNullable(extended);
    }

    /** Whether the key as written can sign (a WIF, an xprv or a tprv). */
    public boolean hasPrivateKey() {
        return extended != null ? extended.hasPrivKey() : fixed.hasPrivKey();
    }

    /** Whether the key is (or derives) an uncompressed public key. */
    boolean uncompressed() {
        return fixed != null && !fixed.isCompressed();
    }

    /**
     * The key at {@code path} and {@code index} (the index is ignored without a wildcard). A key
     * with a multipath step needs {@code path} below {@link #paths()}; one without takes any
     * path (its key is the same on every path).
     */
    DerivedKey derive(int path, int index) {
        int p = paths() == 1 ? 0 : path;
        if (extended == null) {
            KeyOrigin o = origin != null ? origin : new KeyOrigin(fingerprint(fixed.getPubKeyHash()), List.of());
            byte[] pub = fixed.getPubKey();
            return new DerivedKey(pub, o, fixed.hasPrivKey() ? fixed : null);
        }
        DeterministicKey k = parents.get(p);
        List<ChildNumber> tail = path(p);
        if (wildcard != Wildcard.NONE) {
            if (index < 0) {
                throw new IllegalArgumentException("index must be in 0..2147483647, got " + index);
            }
            ChildNumber c = new ChildNumber(index, wildcard == Wildcard.HARDENED);
            k = HDKeyDerivation.deriveChildKey(k, c);
            tail.add(c);
        }
        KeyOrigin o = (origin != null ? origin : new KeyOrigin(extended.getFingerprint(), List.of())).then(tail);
        return new DerivedKey(k.getPubKey(), o, k.hasPrivKey() ? k : null);
    }

    private static int fingerprint(byte[] hash160) {
        return java.nio.ByteBuffer.wrap(hash160, 0, 4).getInt();
    }

    /** The key for path {@code path} alone: its multipath step replaced by that path's value. */
    DescriptorKey single(int path) {
        if (paths() == 1) {
            return this;
        }
        List<List<ChildNumber>> one = new ArrayList<>();
        for (List<ChildNumber> s : steps) {
            one.add(s.size() == 1 ? s : List.of(s.get(path)));
        }
        return new DescriptorKey(origin, fixed, xOnlyText, extended, one, wildcard, network);
    }

    /**
     * The same key without its private part, as BIP 380 normalises it: an xprv whose steps
     * include hardened ones is derived to the last of them, and those steps join the origin.
     * Throws {@link DescriptorException} when that cannot be done (a hardened wildcard or a
     * hardened multipath step).
     */
    DescriptorKey publicOnly() {
        if (!hasPrivateKey()) {
            return this;
        }
        if (extended == null) {
            return new DescriptorKey(
                    origin, ECKey.fromPublicOnly(fixed), xOnlyText, null, List.of(), Wildcard.NONE, network);
        }
        if (wildcard == Wildcard.HARDENED) {
            throw new DescriptorException("key " + abbreviate(extended.serializePubB58(network))
                    + " ends in a hardened wildcard *h: its children cannot be derived without the private key");
        }
        int lastHardened = -1;
        for (int i = 0; i < steps.size(); i++) {
            for (ChildNumber c : steps.get(i)) {
                if (c.isHardened()) {
                    if (steps.get(i).size() > 1) {
                        throw new DescriptorException(
                                "a hardened multipath step cannot be written without the" + " private key");
                    }
                    lastHardened = i;
                }
            }
        }
        DeterministicKey k = extended;
        List<ChildNumber> moved = new ArrayList<>();
        for (int i = 0; i <= lastHardened; i++) {
            k = HDKeyDerivation.deriveChildKey(k, steps.get(i).get(0));
            moved.add(steps.get(i).get(0));
        }
        KeyOrigin o = origin;
        if (!moved.isEmpty()) {
            o = (origin != null ? origin : new KeyOrigin(extended.getFingerprint(), List.of())).then(moved);
        }
        return new DescriptorKey(
                o,
                null,
                false,
                publicKeyOf(k, network),
                steps.subList(lastHardened + 1, steps.size()),
                wildcard,
                network);
    }

    /** The key expression as text; with its private key only if {@code withPrivate}. */
    String text(boolean withPrivate) {
        if (!withPrivate && hasPrivateKey()) {
            return publicOnly().text(false);
        }
        StringBuilder b = new StringBuilder();
        if (origin != null) {
            b.append('[').append(origin).append(']');
        }
        if (extended == null) {
            if (withPrivate && fixed.hasPrivKey()) {
                b.append(fixed.getPrivateKeyAsWiF(network));
            } else {
                String hex = fixed.getPublicKeyAsHex();
                b.append(xOnlyText ? hex.substring(2) : hex);
            }
            return b.toString();
        }
        b.append(extended.hasPrivKey() ? extended.serializePrivB58(network) : extended.serializePubB58(network));
        for (List<ChildNumber> s : steps) {
            b.append('/');
            if (s.size() == 1) {
                b.append(KeyOrigin.step(s.get(0)));
            } else {
                b.append('<');
                for (int i = 0; i < s.size(); i++) {
                    b.append(i == 0 ? "" : ";").append(KeyOrigin.step(s.get(i)));
                }
                b.append('>');
            }
        }
        if (wildcard != Wildcard.NONE) {
            b.append(wildcard == Wildcard.HARDENED ? "/*h" : "/*");
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return hasPrivateKey() ? "(a key with its private part)" : text(false);
    }
}
