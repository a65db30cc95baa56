package org.blockfilter.wallet.descriptor;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.bitcoinj.base.Base58;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Network;
import org.bitcoinj.base.exceptions.AddressFormatException;
import org.bitcoinj.core.NetworkParameters;
import org.bitcoinj.crypto.ChildNumber;
import org.bitcoinj.crypto.DeterministicKey;
import org.bitcoinj.crypto.DumpedPrivateKey;
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
        NONE,
        UNHARDENED,
        HARDENED
    }

    private static final HexFormat HEX = HexFormat.of();
    private static final int MAX_INDEX = Integer.MAX_VALUE;

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

    private DescriptorKey(
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

    static DescriptorKey parse(String text, Network network, boolean xOnlyAllowed) {
        String rest = text;
        KeyOrigin origin = null;
        if (rest.startsWith("[")) {
            int close = rest.indexOf(']');
            if (close < 0) {
                throw new DescriptorException("key origin in '" + text + "' has no closing ]");
            }
            origin = parseOrigin(rest.substring(1, close), text);
            rest = rest.substring(close + 1);
        }
        if (rest.isEmpty()) {
            throw new DescriptorException("key origin [" + origin + "] is not followed by a key");
        }
        if (rest.indexOf('[') >= 0 || rest.indexOf(']') >= 0) {
            throw new DescriptorException("misplaced key origin bracket in key '" + text
                    + "': a key has at most one origin [fingerprint/path], written before it");
        }
        String[] parts = rest.split("/", -1);
        String key = parts[0];
        if (key.matches("[0-9a-fA-F]+") && (key.length() == 64 || key.length() == 66 || key.length() == 130)) {
            noSteps(parts, key);
            return hexKey(origin, key, network, xOnlyAllowed);
        }
        if (looksExtended(key)) {
            return extendedKey(origin, key, parts, network, text);
        }
        noSteps(parts, key);
        return new DescriptorKey(origin, wif(key, network), false, null, List.of(), Wildcard.NONE, network);
    }

    private static void noSteps(String[] parts, String key) {
        if (parts.length > 1) {
            throw new DescriptorException("derivation steps after key " + abbreviate(key)
                    + ", which is not an extended key (only xpub/xprv/tpub/tprv keys derive children)");
        }
    }

    private static KeyOrigin parseOrigin(String inside, String text) {
        String[] parts = inside.split("/", -1);
        if (!parts[0].matches("[0-9a-fA-F]{8}")) {
            throw new DescriptorException(
                    "key origin fingerprint '" + parts[0] + "' in '" + abbreviate(text) + "' is not 8 hex digits");
        }
        List<ChildNumber> path = new ArrayList<>();
        for (int i = 1; i < parts.length; i++) {
            if (parts[i].startsWith("<")) {
                throw new DescriptorException("multipath step " + parts[i] + " inside the key origin [" + inside
                        + "]: a multipath step goes after the extended key");
            }
            path.add(step(parts[i], "key origin [" + inside + "]"));
        }
        return new KeyOrigin((int) Long.parseLong(parts[0], 16), path);
    }

    private static ChildNumber step(String s, String where) {
        if (s.isEmpty()) {
            throw new DescriptorException("empty derivation step in " + where + " (a '/' with nothing after it)");
        }
        if (s.equals("*") || s.equals("*h") || s.equals("*'")) {
            throw new DescriptorException("wildcard " + s + " in " + where + ": only the last step after an"
                    + " extended key may be a wildcard");
        }
        boolean hardened = s.endsWith("h") || s.endsWith("'");
        String digits = hardened ? s.substring(0, s.length() - 1) : s;
        if (s.endsWith("H")) {
            throw new DescriptorException("derivation step '" + s + "' in " + where
                    + ": write a hardened step with h or ' (as Bitcoin Core does)");
        }
        if (!digits.matches("[0-9]{1,10}")) {
            throw new DescriptorException(
                    "derivation step '" + s + "' in " + where + " is not a number (optionally followed by h or ')");
        }
        long v = Long.parseLong(digits);
        if (v > MAX_INDEX) {
            throw new DescriptorException("derivation step " + s + " in " + where + " is out of range: an index is"
                    + " at most 2147483647 (hardened steps are written with h, not as 2^31 + n)");
        }
        return new ChildNumber((int) v, hardened);
    }

    private static DescriptorKey hexKey(KeyOrigin origin, String key, Network network, boolean xOnlyAllowed) {
        String lower = key.toLowerCase(java.util.Locale.ROOT);
        boolean xOnly = lower.length() == 64;
        if (xOnly && !xOnlyAllowed) {
            throw new DescriptorException(
                    "x-only public key " + abbreviate(key)
                            + " (64 hex digits) is only valid inside tr(); elsewhere a key is 66 (compressed) or 130 hex digits");
        }
        if (lower.length() == 66 && !(lower.startsWith("02") || lower.startsWith("03"))) {
            throw new DescriptorException("public key " + abbreviate(key) + " has 66 hex digits but does not start"
                    + " with 02 or 03 (a compressed key)");
        }
        if (lower.length() == 130 && !lower.startsWith("04")) {
            throw new DescriptorException("public key " + abbreviate(key) + " has 130 hex digits but does not start"
                    + " with 04 (an uncompressed key)");
        }
        ECKey k;
        try {
            k = ECKey.fromPublicOnly(HEX.parseHex(xOnly ? "02" + lower : lower));
            if (!k.getPubKeyPoint().isValid()) {
                throw new IllegalArgumentException("invalid point");
            }
        } catch (RuntimeException e) {
            throw new DescriptorException("public key " + abbreviate(key) + " is not a point on secp256k1", e);
        }
        return new DescriptorKey(origin, k, xOnly, null, List.of(), Wildcard.NONE, network);
    }

    private static ECKey wif(String key, Network network) {
        byte[] payload;
        try {
            payload = Base58.decodeChecked(key);
        } catch (AddressFormatException e) {
            throw new DescriptorException("key '" + abbreviate(key) + "' is neither a hex public key, a WIF private"
                    + " key nor an extended key (" + e.getMessage() + ")");
        }
        int version = payload[0] & 0xff;
        int expected = NetworkParameters.of(network).getDumpedPrivateKeyHeader();
        if (version != expected) {
            String of = version == 0x80 ? "mainnet" : version == 0xef ? "testnet/signet/regtest" : "no bitcoin network";
            throw new DescriptorException("WIF private key " + abbreviate(key) + " is for " + of + "; this descriptor"
                    + " is read for " + name(network));
        }
        try {
            return DumpedPrivateKey.fromBase58(network, key).getKey();
        } catch (AddressFormatException e) {
            throw new DescriptorException("WIF private key " + abbreviate(key) + " is malformed: " + e.getMessage(), e);
        }
    }

    private static boolean looksExtended(String key) {
        return key.length() > 100 || key.matches("^[xtyzuvYZUV](pub|prv).*");
    }

    private static DescriptorKey extendedKey(
            KeyOrigin origin, String key, String[] parts, Network network, String text) {
        DeterministicKey k = decodeExtended(key, network);
        List<List<ChildNumber>> steps = new ArrayList<>();
        Wildcard wildcard = Wildcard.NONE;
        boolean multipath = false;
        String where = "key " + abbreviate(key);
        for (int i = 1; i < parts.length; i++) {
            String s = parts[i];
            boolean last = i == parts.length - 1;
            if (s.equals("*") || s.equals("*h") || s.equals("*'")) {
                if (!last) {
                    throw new DescriptorException("wildcard " + s + " after " + where + " is not the last step");
                }
                wildcard = s.equals("*") ? Wildcard.UNHARDENED : Wildcard.HARDENED;
                if (s.equals("*")) {
                    continue;
                }
                if (!k.hasPrivKey()) {
                    throw hardenedAfterPublic(s, key);
                }
                continue;
            }
            if (s.startsWith("<") || s.endsWith(">")) {
                if (multipath) {
                    throw new DescriptorException("second multipath step " + s + " after " + where
                            + ": a key has at most one <a;b;...> step (BIP 389)");
                }
                multipath = true;
                steps.add(multipath(s, where));
            } else {
                steps.add(List.of(step(s, where)));
            }
        }
        if (!k.hasPrivKey()) {
            for (List<ChildNumber> choices : steps) {
                for (ChildNumber c : choices) {
                    if (c.isHardened()) {
                        throw hardenedAfterPublic(c.num() + "h", key);
                    }
                }
            }
        }
        return new DescriptorKey(origin, null, false, k, steps, wildcard, network);
    }

    private static DescriptorException hardenedAfterPublic(String step, String key) {
        return new DescriptorException("hardened derivation step " + step + " after extended public key "
                + abbreviate(key) + ": deriving a hardened child needs the private key (xprv/tprv)");
    }

    private static List<ChildNumber> multipath(String s, String where) {
        if (!s.startsWith("<") || !s.endsWith(">") || s.length() < 2) {
            throw new DescriptorException("multipath step '" + s + "' after " + where + " must be written <a;b;...>");
        }
        String inside = s.substring(1, s.length() - 1);
        if (inside.isEmpty()) {
            throw new DescriptorException("empty multipath step <> after " + where);
        }
        List<ChildNumber> choices = new ArrayList<>();
        for (String part : inside.split(";", -1)) {
            if (part.isEmpty()) {
                throw new DescriptorException("multipath step " + s + " after " + where + " has an empty value");
            }
            ChildNumber c = step(part, "multipath step " + s);
            if (choices.contains(c)) {
                throw new DescriptorException(
                        "multipath step " + s + " after " + where + " repeats " + part + " (BIP 389: no duplicates)");
            }
            choices.add(c);
        }
        if (choices.size() < 2) {
            throw new DescriptorException("multipath step " + s + " after " + where + " has one value; it needs two"
                    + " or more (write a single value as a plain step)");
        }
        return choices;
    }

    private static DeterministicKey decodeExtended(String key, Network network) {
        if (key.matches("^[yzuvYZUV](pub|prv).*")) {
            throw new DescriptorException(
                    "extended key " + abbreviate(key) + " is a SLIP 132 key (" + key.substring(0, 4)
                            + "); a descriptor takes xpub/xprv (mainnet) or tpub/tprv (test networks): the function around it"
                            + " says the script type");
        }
        byte[] payload;
        try {
            payload = Base58.decodeChecked(key);
        } catch (AddressFormatException e) {
            throw new DescriptorException(
                    "extended key " + abbreviate(key) + " is not valid base58check: " + e.getMessage(), e);
        }
        if (payload.length != 78) {
            throw new DescriptorException(
                    "extended key " + abbreviate(key) + " is " + payload.length + " bytes, an extended key is 78");
        }
        int header = java.nio.ByteBuffer.wrap(payload, 0, 4).getInt();
        NetworkParameters params = NetworkParameters.of(network);
        if (header != params.getBip32HeaderP2PKHpub() && header != params.getBip32HeaderP2PKHpriv()) {
            NetworkParameters main = NetworkParameters.of(BitcoinNetwork.MAINNET);
            NetworkParameters test = NetworkParameters.of(BitcoinNetwork.TESTNET);
            String of = header == main.getBip32HeaderP2PKHpub() || header == main.getBip32HeaderP2PKHpriv()
                    ? "mainnet (xpub/xprv)"
                    : header == test.getBip32HeaderP2PKHpub() || header == test.getBip32HeaderP2PKHpriv()
                            ? "testnet, signet and regtest (tpub/tprv)"
                            : "no bitcoin network (version " + String.format("%08x", header) + ")";
            throw new DescriptorException("extended key " + abbreviate(key) + " is a key for " + of
                    + "; this descriptor is read for " + name(network));
        }
        try {
            return DeterministicKey.deserializeB58(key, network);
        } catch (IllegalArgumentException e) {
            throw new DescriptorException("extended key " + abbreviate(key) + " is malformed: " + e.getMessage(), e);
        }
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

    static List<DescriptorKey> unmodifiable(List<DescriptorKey> keys) {
        return Collections.unmodifiableList(new ArrayList<>(keys));
    }
}
