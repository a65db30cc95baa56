package org.blockfilter.server.http.internal;

import java.io.ByteArrayOutputStream;
import java.util.HexFormat;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;

/** Bitcoin wire encodings the binary representations use: CompactSize and internal-order hashes. Stateless. */
public final class Wire {
    public static final HexFormat HEX = HexFormat.of();

    private Wire() {}

    public static void writeCompactSize(ByteArrayOutputStream out, long n) {
        if (n < 0xfd) {
            out.write((int) n);
        } else if (n <= 0xffff) {
            out.write(0xfd);
            writeLe(out, n, 2);
        } else if (n <= 0xffffffffL) {
            out.write(0xfe);
            writeLe(out, n, 4);
        } else {
            out.write(0xff);
            writeLe(out, n, 8);
        }
    }

    public static int compactSizeLength(long n) {
        return n < 0xfd ? 1 : n <= 0xffff ? 3 : n <= 0xffffffffL ? 5 : 9;
    }

    private static void writeLe(ByteArrayOutputStream out, long n, int bytes) {
        for (int i = 0; i < bytes; i++) {
            out.write((int) (n >>> (8 * i)) & 0xff);
        }
    }

    /** The hash in internal (wire) byte order, the reverse of its display hex. */
    public static void writeHash(ByteArrayOutputStream out, Sha256Hash hash) {
        out.writeBytes(hash.serialize()); // internal byte order
    }

    public static String hex(byte[] bytes) {
        return HEX.formatHex(bytes);
    }

    public static List<String> displayHex(List<Sha256Hash> hashes) {
        return hashes.stream().map(Sha256Hash::toString).toList();
    }

    /** Whether {@code s} is exactly 64 hex digits (either case), as Core's ParseHashStr requires. */
    public static boolean isHash(String s) {
        if (s == null || s.length() != 64) {
            return false;
        }
        for (int i = 0; i < 64; i++) {
            if (Character.digit(s.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }

    /** Parses a display-order hash, or null if {@code s} is not 64 hex digits. */
    public static Sha256Hash parseHash(String s) {
        return isHash(s) ? Sha256Hash.wrap(s.toLowerCase(java.util.Locale.ROOT)) : null;
    }
}
