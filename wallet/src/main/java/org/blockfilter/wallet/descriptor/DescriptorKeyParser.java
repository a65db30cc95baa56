package org.blockfilter.wallet.descriptor;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.bitcoinj.base.Base58;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Network;
import org.bitcoinj.base.exceptions.AddressFormatException;
import org.bitcoinj.core.NetworkParameters;
import org.bitcoinj.crypto.ChildNumber;
import org.bitcoinj.crypto.DeterministicKey;
import org.bitcoinj.crypto.DumpedPrivateKey;
import org.bitcoinj.crypto.ECKey;

/**
 * Reads one key expression (BIP 380, BIP 389 multipath) strictly into a {@link DescriptorKey}:
 * origin, hex/x-only/WIF/extended key, derivation steps, multipath step, wildcard, and the key's
 * network. Stateless.
 */
final class DescriptorKeyParser {
    private static final HexFormat HEX = HexFormat.of();
    private static final int MAX_INDEX = Integer.MAX_VALUE;

    private DescriptorKeyParser() {}

    private static String abbreviate(String s) {
        return DescriptorKey.abbreviate(s);
    }

    private static String name(Network network) {
        return DescriptorKey.name(network);
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
        return new DescriptorKey(
                origin, wif(key, network), false, null, List.of(), DescriptorKey.Wildcard.NONE, network);
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
        return new DescriptorKey(origin, k, xOnly, null, List.of(), DescriptorKey.Wildcard.NONE, network);
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
        DescriptorKey.Wildcard wildcard = DescriptorKey.Wildcard.NONE;
        boolean multipath = false;
        String where = "key " + abbreviate(key);
        for (int i = 1; i < parts.length; i++) {
            String s = parts[i];
            boolean last = i == parts.length - 1;
            if (s.equals("*") || s.equals("*h") || s.equals("*'")) {
                if (!last) {
                    throw new DescriptorException("wildcard " + s + " after " + where + " is not the last step");
                }
                wildcard = s.equals("*") ? DescriptorKey.Wildcard.UNHARDENED : DescriptorKey.Wildcard.HARDENED;
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
}
