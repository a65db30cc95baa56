package org.blockfilter.wallet.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HexFormat;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.chain.Chain;
import org.junit.jupiter.api.Test;

/** The header chain holds each header to the bits its network's difficulty rules require. */
class VerifiedHeaderChainDifficultyTest {
    /**
     * Headers on top of the default signet's genesis, mined for this test (version 0x20000000, time
     * genesis + 600 s, an arbitrary Merkle root, nonce found by search): signet's proof-of-work limit is
     * low enough to mine one in seconds. The first claims genesis's bits, as signet requires inside a
     * difficulty period; the second claims a slightly harder target, still within the limit.
     */
    private static final String SIGNET_1_GENESIS_BITS =
            "00000020f61eee3b63a380a477a063af32b2bbc97c9ff9f01f2c4225e9739881080000004c542988d59d6d9750ed50dffd13b99dac7e011542e2c5d77dccbaea94f8d4fc58914d5fae77031e6eba1e00";

    private static final String SIGNET_1_OTHER_BITS =
            "00000020f61eee3b63a380a477a063af32b2bbc97c9ff9f01f2c4225e9739881080000004c542988d59d6d9750ed50dffd13b99dac7e011542e2c5d77dccbaea94f8d4fc58914d5fad77031e98556600";

    @Test
    void aSignetHeaderWithThePeriodsBitsExtendsTheChain() {
        VerifiedHeaderChain chain = new VerifiedHeaderChain(Chain.SIGNET);
        chain.connect(1, List.of(HexFormat.of().parseHex(SIGNET_1_GENESIS_BITS)));
        assertEquals(1, chain.tipHeight());
        assertEquals(
                "00000166245d9de22e79e3e9250c6765ea2be37db0c350e8e8078a76faffd404",
                chain.tipHash().toString());
    }

    /** Before the difficulty rules, any bits within signet's limit were taken, so this header was accepted. */
    @Test
    void aSignetHeaderThatChangesTheBitsInsideAPeriodIsRejected() {
        VerifiedHeaderChain chain = new VerifiedHeaderChain(Chain.SIGNET);
        InvalidHeaderException e = assertThrows(
                InvalidHeaderException.class,
                () -> chain.connect(1, List.of(HexFormat.of().parseHex(SIGNET_1_OTHER_BITS))));
        assertEquals(1, e.height());
        assertEquals("height 1: bits 1e0377ad, but the difficulty rules require 1e0377ae", e.getMessage());
        assertEquals(0, chain.tipHeight());
    }

    @Test
    void aRegtestHeaderWithOtherBitsIsRejected() {
        VerifiedHeaderChain chain = new VerifiedHeaderChain(Chain.REGTEST);
        byte[] header = mine(chain.tipHash(), chain.header(0).time().getEpochSecond() + 600, 0x1f00ffffL);
        InvalidHeaderException e = assertThrows(InvalidHeaderException.class, () -> chain.connect(1, List.of(header)));
        assertEquals("height 1: bits 1f00ffff, but the difficulty rules require 207fffff", e.getMessage());
    }

    /** A header on {@code prev} meeting {@code bits} (about 65,536 tries for 0x1f00ffff). */
    private static byte[] mine(Sha256Hash prev, long time, long bits) {
        byte[] h = new byte[80];
        put(h, 0, 0x20000000L);
        System.arraycopy(prev.getReversedBytes(), 0, h, 4, 32);
        put(h, 68, time);
        put(h, 72, bits);
        java.math.BigInteger target = org.bitcoinj.base.internal.ByteUtils.decodeCompactBits(bits);
        for (long nonce = 0; ; nonce++) {
            put(h, 76, nonce);
            if (Sha256Hash.wrapReversed(Sha256Hash.hashTwice(h)).toBigInteger().compareTo(target) <= 0) {
                return h;
            }
        }
    }

    private static void put(byte[] b, int off, long v) {
        for (int i = 0; i < 4; i++) {
            b[off + i] = (byte) (v >>> (8 * i));
        }
    }
}
