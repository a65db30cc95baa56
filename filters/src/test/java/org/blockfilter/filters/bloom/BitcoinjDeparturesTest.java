package org.blockfilter.filters.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import org.bitcoinj.core.BloomFilter;
import org.bitcoinj.core.Transaction;
import org.junit.jupiter.api.Test;

/**
 * Where bitcoinj 0.17.1's {@link BloomFilter} departs from Bitcoin Core's {@code CBloomFilter}, each shown on a
 * small input, with {@link Bip37Filter} doing what Core does.
 */
class BitcoinjDeparturesTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final byte[] PROGRAM = new byte[32];

    static {
        Arrays.fill(PROGRAM, (byte) 0x42);
    }

    /** One input (prevout 11..11:0, empty scriptSig), one output with the given script. */
    private static Transaction txWithOutputScript(byte[] script) {
        String hex = "01000000" + "01" + "11".repeat(32) + "00000000" + "00" + "ffffffff" + "01" + "e803000000000000"
                + String.format("%02x", script.length) + HEX.formatHex(script) + "00000000";
        return Transaction.read(ByteBuffer.wrap(HEX.parseHex(hex)));
    }

    private static byte[] taprootScript() {
        byte[] s = new byte[34];
        s[0] = 0x51; // OP_1
        s[1] = 0x20;
        System.arraycopy(PROGRAM, 0, s, 2, 32);
        return s;
    }

    /** Core: floor(floor(m / n) * ln 2) hash functions; bitcoinj: floor(m / n * ln 2). n = 9, p = 0.01 gives 80 bits. */
    @Test
    void bitcoinjPicksOneMoreHashFunctionThanCoreForNineElementsAtOnePercent() {
        BloomFilter bitcoinj = new BloomFilter(9, 0.01, 0, BloomFilter.BloomUpdate.UPDATE_ALL);
        Bip37Filter core = Bip37Filter.create(9, 0.01, 0, UpdateFlag.UPDATE_ALL);
        assertEquals(10, core.sizeBytes());
        assertEquals(5, core.hashFuncs());
        assertEquals(6, Bip37Filter.fromBitcoinj(bitcoinj).hashFuncs());
        assertNotEquals(HEX.formatHex(core.serialize()), HEX.formatHex(bitcoinj.serialize()));
    }

    /** Core treats a zero-byte filter as "match everything" (CVE-2013-5700); bitcoinj divides by zero. */
    @Test
    void bitcoinjDividesByZeroOnAnEmptyFilterWhereCoreMatchesEverything() {
        byte[] payload = HEX.parseHex("00" + "05000000" + "00000000" + "00");
        BloomFilter bitcoinj = BloomFilter.read(ByteBuffer.wrap(payload));
        assertThrows(ArithmeticException.class, () -> bitcoinj.contains(new byte[] {1}));
        Bip37Filter ours = Bip37Filter.parse(payload);
        assertTrue(ours.contains(new byte[] {1}));
        assertTrue(ours.isRelevantAndUpdate(txWithOutputScript(taprootScript())));
    }

    /** bitcoinj reads OP_1..OP_16 as push data with no payload and hashes null: any taproot output crashes matching. */
    @Test
    void bitcoinjThrowsOnTaprootOutputWhereCoreMatchesTheWitnessProgram() {
        Transaction tx = txWithOutputScript(taprootScript());
        BloomFilter bitcoinj = new BloomFilter(10, 0.000001, 0, BloomFilter.BloomUpdate.UPDATE_ALL);
        bitcoinj.insert(PROGRAM);
        assertThrows(NullPointerException.class, () -> bitcoinj.applyAndUpdate(tx));
        Bip37Filter ours = Bip37Filter.create(10, 0.000001, 0, UpdateFlag.UPDATE_ALL);
        ours.insert(PROGRAM);
        assertTrue(ours.isRelevantAndUpdate(tx));
        byte[] outpoint = new byte[36];
        System.arraycopy(tx.getTxId().serialize(), 0, outpoint, 0, 32);
        assertTrue(ours.contains(outpoint), "UPDATE_ALL adds the matched output's outpoint");
    }

    /** Core's GetOp stops at a truncated push but keeps the pushes before it; bitcoinj refuses to parse the script. */
    @Test
    void bitcoinjThrowsOnATruncatedPushWhereCoreStillMatchesEarlierPushes() {
        byte[] script = new byte[1 + 32 + 1];
        script[0] = 0x20;
        System.arraycopy(PROGRAM, 0, script, 1, 32);
        script[33] = 0x4c; // OP_PUSHDATA1 with its length byte missing
        Transaction tx = txWithOutputScript(script);
        BloomFilter bitcoinj = new BloomFilter(10, 0.000001, 0, BloomFilter.BloomUpdate.UPDATE_NONE);
        bitcoinj.insert(PROGRAM);
        assertThrows(RuntimeException.class, () -> bitcoinj.applyAndUpdate(tx));
        Bip37Filter ours = Bip37Filter.create(10, 0.000001, 0, UpdateFlag.UPDATE_NONE);
        ours.insert(PROGRAM);
        assertTrue(ours.isRelevantAndUpdate(tx));
    }

    /** bitcoinj's reader takes flags 3..255 and then throws from getUpdateFlag; we reject them when decoding. */
    @Test
    void bitcoinjAcceptsUnknownUpdateFlagsThatLaterThrow() {
        byte[] payload = HEX.parseHex("01ff" + "01000000" + "00000000" + "03");
        BloomFilter bitcoinj = BloomFilter.read(ByteBuffer.wrap(payload));
        assertThrows(IllegalStateException.class, bitcoinj::getUpdateFlag);
        BloomFilterFormatException e = assertThrows(BloomFilterFormatException.class, () -> Bip37Filter.parse(payload));
        assertEquals("nFlags", e.field());
        assertEquals(10, e.offset());
    }

    /** bitcoinj's reader ignores bytes after nFlags; a strict decoder must not. */
    @Test
    void bitcoinjIgnoresTrailingBytesAfterTheFilter() {
        byte[] payload = HEX.parseHex("01ff" + "01000000" + "00000000" + "01" + "00");
        BloomFilter bitcoinj = BloomFilter.read(ByteBuffer.wrap(payload));
        assertTrue(bitcoinj.contains(new byte[] {7}));
        BloomFilterFormatException e = assertThrows(BloomFilterFormatException.class, () -> Bip37Filter.parse(payload));
        assertEquals("end of message", e.field());
        assertFalse(e.getMessage().isEmpty());
    }
}
