package org.blockfilter.server.p2p;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An address range in CIDR notation ({@code 10.0.0.0/8}, {@code fd00::/8}, or one address):
 * the ranges whose peers count as local ({@code --p2p-whitelist}). Immutable and thread-safe.
 */
public final class NetRange {
    /** The IPv4 loopback network (all of 127/8 is loopback on Linux). */
    public static final NetRange LOOPBACK_V4 = parse("127.0.0.0/8");
    /** The IPv6 loopback address. */
    public static final NetRange LOOPBACK_V6 = parse("::1/128");

    private final byte[] network;
    private final int prefix;

    private NetRange(byte[] network, int prefix) {
        this.network = network;
        this.prefix = prefix;
    }

    /**
     * Parses {@code ADDRESS[/PREFIX]}; the address must be a literal (no name is looked up).
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static NetRange parse(String spec) {
        Objects.requireNonNull(spec, "spec");
        int slash = spec.indexOf('/');
        String literal = slash < 0 ? spec : spec.substring(0, slash);
        if (!literal.matches("[0-9.]+|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*")) {
            throw new IllegalArgumentException("not an IP address range: '" + spec + "' (e.g. 10.0.0.0/8 or fd00::/8)");
        }
        byte[] bytes;
        try {
            bytes = InetAddress.getByName(literal).getAddress(); // a literal: parsed, never resolved
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address range: '" + spec + "'");
        }
        int bits = bytes.length * 8;
        int prefix = bits;
        if (slash >= 0) {
            try {
                prefix = Integer.parseInt(spec.substring(slash + 1));
            } catch (NumberFormatException e) {
                prefix = -1;
            }
            if (prefix < 0 || prefix > bits) {
                throw new IllegalArgumentException(
                        "prefix length of '" + spec + "' must be 0.." + bits + " for this address");
            }
        }
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] &= mask(prefix, i);
        }
        return new NetRange(bytes, prefix);
    }

    /** Parses each spec ({@link #parse}). */
    public static List<NetRange> parseAll(String... specs) {
        List<NetRange> ranges = new ArrayList<>();
        for (String s : specs) {
            ranges.add(parse(s));
        }
        return List.copyOf(ranges);
    }

    private static int mask(int prefix, int byteIndex) {
        int bitsHere = Math.max(0, Math.min(8, prefix - byteIndex * 8));
        return (0xff << (8 - bitsHere)) & 0xff;
    }

    public boolean contains(InetAddress address) {
        byte[] a = address.getAddress();
        if (a.length != network.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if ((a[i] & mask(prefix, i)) != (network[i] & 0xff)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NetRange r && r.prefix == prefix && java.util.Arrays.equals(r.network, network);
    }

    @Override
    public int hashCode() {
        return java.util.Arrays.hashCode(network) * 31 + prefix;
    }

    @Override
    public String toString() {
        try {
            return InetAddress.getByAddress(network).getHostAddress() + "/" + prefix;
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // 4 or 16 bytes: cannot happen
        }
    }
}
