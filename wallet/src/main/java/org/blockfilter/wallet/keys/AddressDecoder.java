package org.blockfilter.wallet.keys;

import java.util.Arrays;
import java.util.Locale;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Base58;
import org.bitcoinj.base.Bech32;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.LegacyAddress;
import org.bitcoinj.base.Network;
import org.bitcoinj.base.SegwitAddress;
import org.bitcoinj.base.exceptions.AddressFormatException;

/**
 * Reads a payment address for a wallet's network the way Bitcoin Core's {@code DecodeDestination}
 * does. Base58 addresses carry only a version byte, and testnet, signet and regtest share theirs
 * (111 P2PKH, 196 P2SH), so on regtest an {@code m...}/{@code n...}/{@code 2...} address is a
 * regtest address; bech32/bech32m addresses carry a network prefix ({@code bc}, {@code tb},
 * {@code bcrt}) that must be the wallet's own. bitcoinj's parser instead maps base58 prefixes to
 * testnet and refuses them on regtest.
 *
 * <p>Accepted: P2PKH, P2SH, witness v0 (20-byte P2WPKH, 32-byte P2WSH, bech32 checksum), v1
 * 32-byte P2TR and v2..16 programs of 2..40 bytes (bech32m checksum). Unlike Core, a v1 program that
 * is not 32 bytes (pay-to-anchor, unknown v1) is refused: bitcoinj cannot encode it. Every refusal is
 * a {@link KeyFormatException} that says what the text is and what the wallet expected. Stateless.
 */
public final class AddressDecoder {
    private static final int HASH160_BYTES = 20;

    private AddressDecoder() {}

    /**
     * The address if it is one for {@code network}; throws {@link KeyFormatException} if not. Its
     * {@link Address#network()} may be another network with the same encoding (see {@link #forNetwork}).
     */
    public static Address decode(String text, Network network) {
        if (text == null || text.isBlank()) {
            throw new KeyFormatException("empty address", null);
        }
        String s = text.strip();
        String hrp = network.segwitAddressHrp();
        // Core's test: the text is bech32 if it starts with the network's own prefix and a '1'.
        if (s.toLowerCase(Locale.ROOT).startsWith(hrp + "1")) {
            return segwit(s, network);
        }
        byte[] payload;
        try {
            payload = Base58.decodeChecked(s);
        } catch (AddressFormatException e) {
            throw new KeyFormatException(notBase58Message(s, network), e);
        }
        return legacy(s, payload, network);
    }

    /**
     * The same destination if it is valid on {@code network}, or a {@link KeyFormatException}: a
     * testnet base58 address is a regtest one, a {@code tb1} address is not. bitcoinj labels an
     * address with one network of those sharing its encoding (regtest and signet base58, signet
     * bech32 become testnet), so {@link Address#network()} cannot be compared; the text is decoded again.
     */
    public static Address forNetwork(Address address, Network network) {
        return decode(address.toString(), network);
    }

    private static Address legacy(String s, byte[] payload, Network network) {
        int version = payload.length == 0 ? -1 : payload[0] & 0xff;
        int p2pkh = pubKeyHashVersion(network);
        int p2sh = scriptHashVersion(network);
        if (version != p2pkh && version != p2sh) {
            throw new KeyFormatException(
                    "address " + s + " is a base58 address for " + base58Networks(version) + " (version byte " + version
                            + "); this wallet is " + name(network) + ", which expects version " + p2pkh + " (P2PKH) or "
                            + p2sh + " (P2SH)",
                    null);
        }
        if (payload.length != 1 + HASH160_BYTES) {
            throw new KeyFormatException(
                    "address " + s + " has a " + (payload.length - 1) + "-byte hash, a base58 address has "
                            + HASH160_BYTES,
                    null);
        }
        byte[] hash = Arrays.copyOfRange(payload, 1, payload.length);
        return version == p2pkh
                ? LegacyAddress.fromPubKeyHash(network, hash)
                : LegacyAddress.fromScriptHash(network, hash);
    }

    private static Address segwit(String s, Network network) {
        Bech32.Bech32Data data;
        try {
            data = Bech32.decode(s);
        } catch (AddressFormatException e) {
            throw new KeyFormatException("address " + s + " is not valid bech32/bech32m (" + e.getMessage() + ")", e);
        }
        try {
            return SegwitAddress.fromBech32(s, network);
        } catch (AddressFormatException e) {
            throw new KeyFormatException(
                    "address " + s + " is not a valid " + data.encoding.name().toLowerCase(Locale.ROOT)
                            + " segwit address: " + e.getMessage(),
                    e);
        }
    }

    private static String notBase58Message(String s, Network network) {
        String lower = s.toLowerCase(Locale.ROOT);
        int sep = lower.lastIndexOf('1');
        if (sep > 0) {
            String prefix = lower.substring(0, sep);
            for (BitcoinNetwork other : BitcoinNetwork.values()) {
                if (other.segwitAddressHrp().equals(prefix)) {
                    return "address " + s + " is a segwit address for " + segwitNetworks(prefix) + " (prefix "
                            + prefix + "1); this wallet is " + name(network) + ", whose addresses start with "
                            + network.segwitAddressHrp() + "1";
                }
            }
        }
        return "not a valid address for " + name(network) + ": " + s + " (neither base58check nor bech32 with prefix "
                + network.segwitAddressHrp() + "1)";
    }

    private static String segwitNetworks(String hrp) {
        StringBuilder b = new StringBuilder();
        for (BitcoinNetwork n : BitcoinNetwork.values()) {
            if (n.segwitAddressHrp().equals(hrp)) {
                b.append(b.length() == 0 ? "" : "/").append(n);
            }
        }
        return b.toString();
    }

    private static String base58Networks(int version) {
        StringBuilder b = new StringBuilder();
        for (BitcoinNetwork n : BitcoinNetwork.values()) {
            if (pubKeyHashVersion(n) == version || scriptHashVersion(n) == version) {
                b.append(b.length() == 0 ? "" : "/").append(n);
            }
        }
        return b.length() == 0 ? "no bitcoin network" : b.toString();
    }

    private static int pubKeyHashVersion(Network network) {
        return network.legacyAddressHeader();
    }

    private static int scriptHashVersion(Network network) {
        return network.legacyP2SHHeader();
    }

    private static String name(Network network) {
        return network instanceof BitcoinNetwork b ? b.toString() : network.id();
    }
}
