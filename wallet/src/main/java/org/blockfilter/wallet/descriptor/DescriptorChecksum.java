package org.blockfilter.wallet.descriptor;

/**
 * The BIP 380 descriptor checksum: a BCH code over the descriptor's characters, 8 characters of
 * the bech32 alphabet after a {@code #}. Character set, generator and expansion from BIP 380's
 * reference code (bitcoin/bips bip-0380.mediawiki). Stateless.
 */
public final class DescriptorChecksum {
    /** BIP 380's INPUT_CHARSET, in its order (3 groups of 32). */
    static final String INPUT_CHARSET =
            "0123456789()[],'/*abcdefgh@:$%{}IJKLMNOPQRSTUVWXYZ&+-.;<=>?!^_|~ijklmnopqrstuvwxyzABCDEFGH`#\"\\ ";

    private static final String CHECKSUM_CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
    private static final long[] GENERATOR = {0xf5dee51989L, 0xa9fdca3312L, 0x1bab10e32dL, 0x3706b1677aL, 0x644d626ffdL};
    /** Characters of a checksum. */
    public static final int LENGTH = 8;

    private DescriptorChecksum() {}

    /** The 8-character checksum of {@code descriptor} (without {@code #}); throws naming a character outside the set. */
    public static String of(String descriptor) {
        long c = polymod(expand(descriptor), LENGTH) ^ 1;
        StringBuilder b = new StringBuilder(LENGTH);
        for (int i = 0; i < LENGTH; i++) {
            b.append(CHECKSUM_CHARSET.charAt((int) ((c >> (5 * (7 - i))) & 31)));
        }
        return b.toString();
    }

    /** {@code descriptor#checksum}. */
    public static String append(String descriptor) {
        return descriptor + "#" + of(descriptor);
    }

    /**
     * The descriptor without its checksum: the text before {@code #} if the checksum after it is
     * right, the text itself when it has none; a {@link DescriptorException} saying what is wrong
     * with a checksum that is given.
     */
    public static String strip(String text) {
        int hash = text.indexOf('#');
        checkCharacters(hash < 0 ? text : text.substring(0, hash));
        if (hash < 0) {
            return text;
        }
        String body = text.substring(0, hash);
        String given = text.substring(hash + 1);
        if (given.length() != LENGTH) {
            throw new DescriptorException("descriptor checksum '" + given + "' has " + given.length()
                    + " characters, a checksum has " + LENGTH + " (expected #" + of(body) + ")");
        }
        String expected = of(body);
        if (!expected.equals(given)) {
            throw new DescriptorException("bad descriptor checksum #" + given + ": the descriptor's checksum is #"
                    + expected + " (a character of the descriptor or of the checksum is wrong)");
        }
        return body;
    }

    private static void checkCharacters(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (INPUT_CHARSET.indexOf(s.charAt(i)) < 0) {
                throw new DescriptorException("invalid character '" + s.charAt(i) + "' at position " + i
                        + " of the descriptor (not in BIP 380's character set)");
            }
        }
    }

    private static int[] expand(String s) {
        checkCharacters(s);
        int[] out = new int[s.length() + s.length() / 3 + 1];
        int n = 0;
        int groups = 0;
        int count = 0;
        for (int i = 0; i < s.length(); i++) {
            int v = INPUT_CHARSET.indexOf(s.charAt(i));
            out[n++] = v & 31;
            groups = groups * 3 + (v >> 5);
            if (++count == 3) {
                out[n++] = groups;
                groups = 0;
                count = 0;
            }
        }
        if (count > 0) {
            out[n++] = groups;
        }
        return java.util.Arrays.copyOf(out, n);
    }

    private static long polymod(int[] symbols, int trailingZeros) {
        long chk = 1;
        for (int i = 0; i < symbols.length + trailingZeros; i++) {
            int value = i < symbols.length ? symbols[i] : 0;
            long top = chk >> 35;
            chk = ((chk & 0x7ffffffffL) << 5) ^ value;
            for (int g = 0; g < 5; g++) {
                if (((top >> g) & 1) != 0) {
                    chk ^= GENERATOR[g];
                }
            }
        }
        return chk;
    }
}
