package org.blockfilter.server.http.internal;

import java.util.HexFormat;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;

/** Hex text of bytes and hashes as the API reads and writes it (hashes in display order). Stateless. */
public final class HashHex {
    public static final HexFormat HEX = HexFormat.of();

    private HashHex() {}

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
