package org.blockfilter.filters;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutPoint;
import org.bitcoinj.core.TransactionOutput;
import org.blockfilter.filters.gcs.FilterFormatException;
import org.junit.jupiter.api.Test;

/** Which scripts go into a basic filter, on small hand-made blocks. */
class BasicFilterTest {

    private static final byte[] P2PKH = hex("76a914f2c25ac3d59f3d674b1d1d0a25c27339aaac0ba688ac");
    private static final byte[] P2WPKH = hex("0014" + "11".repeat(20));
    private static final byte[] OP_RETURN_DATA = hex("6a0401020304");
    /** OP_PUSHDATA1 claiming 0x4c bytes with only one present: bitcoinj cannot parse it. */
    private static final byte[] UNPARSEABLE = hex("4c4c01");

    private static final Sha256Hash FUNDING_TX = Sha256Hash.wrap("aa".repeat(32));

    private static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex);
    }

    private static Transaction coinbase(byte[]... outputScripts) {
        Transaction tx = Transaction.coinbase(hex("03010203"));
        for (byte[] script : outputScripts) {
            tx.addOutput(new TransactionOutput(tx, Coin.COIN, script));
        }
        return tx;
    }

    private static Transaction spend(int prevIndex, byte[]... outputScripts) {
        Transaction tx = new Transaction();
        tx.addInput(new TransactionInput(tx, new byte[0], new TransactionOutPoint(prevIndex, FUNDING_TX)));
        for (byte[] script : outputScripts) {
            tx.addOutput(new TransactionOutput(tx, Coin.COIN, script));
        }
        return tx;
    }

    private static Block block(Transaction... txs) {
        return new Block(
                1,
                Sha256Hash.ZERO_HASH,
                Sha256Hash.ZERO_HASH,
                Instant.ofEpochSecond(1_700_000_000L),
                0x207fffffL,
                0,
                List.of(txs));
    }

    private static PrevoutScripts prevouts(byte[]... scriptsByIndex) {
        return outpoint -> {
            if (!outpoint.hash().equals(FUNDING_TX) || outpoint.index() >= scriptsByIndex.length) {
                throw new NoSuchElementException(outpoint.toString());
            }
            return scriptsByIndex[(int) outpoint.index()];
        };
    }

    private static Set<FilterElement> elementsOf(Block block, PrevoutScripts prevouts) {
        return BasicFilter.elements(block, prevouts);
    }

    @Test
    void opReturnAndEmptyOutputScriptsAreExcluded() {
        Block block = block(coinbase(P2PKH, OP_RETURN_DATA, new byte[0]));
        assertEquals(Set.of(FilterElement.of(P2PKH)), elementsOf(block, prevouts()));
        BasicFilter filter = BasicFilter.build(block, prevouts());
        assertEquals(1, filter.size());
        assertTrue(filter.match(P2PKH));
    }

    @Test
    void scriptContainingOpReturnLaterIsIncluded() {
        byte[] notLeading = hex("516a");
        assertEquals(Set.of(FilterElement.of(notLeading)), elementsOf(block(coinbase(notLeading)), prevouts()));
    }

    @Test
    void unparseableCoinbaseScriptIsIncludedAsRawBytes() {
        Block block = block(coinbase(UNPARSEABLE));
        assertEquals(Set.of(FilterElement.of(UNPARSEABLE)), elementsOf(block, prevouts()));
        assertTrue(BasicFilter.build(block, prevouts()).match(UNPARSEABLE));
    }

    @Test
    void spentScriptsAreIncludedAndEmptyOnesSkipped() {
        Block block = block(coinbase(P2PKH), spend(0, P2WPKH), spend(1, P2WPKH));
        byte[] spent = hex("a914" + "22".repeat(20) + "87");
        Set<FilterElement> elements = elementsOf(block, prevouts(spent, new byte[0]));
        assertEquals(Set.of(FilterElement.of(P2PKH), FilterElement.of(P2WPKH), FilterElement.of(spent)), elements);
    }

    @Test
    void aScriptBothCreatedAndSpentCountsOnce() {
        Block block = block(coinbase(P2PKH), spend(0, P2PKH), spend(1, P2PKH));
        BasicFilter filter = BasicFilter.build(block, prevouts(P2PKH, P2PKH));
        assertEquals(1, filter.size());
    }

    @Test
    void coinbaseInputIsNotLookedUp() {
        // The lookup knows nothing: a coinbase-only block must not ask it.
        Block block = block(coinbase(P2PKH));
        assertEquals(
                1,
                BasicFilter.build(block, outpoint -> {
                            throw new AssertionError("looked up " + outpoint);
                        })
                        .size());
    }

    @Test
    void unknownPrevoutPropagatesTheLookupsError() {
        Block block = block(coinbase(P2PKH), spend(5, P2WPKH));
        assertThrows(NoSuchElementException.class, () -> BasicFilter.build(block, prevouts(P2PKH)));
    }

    @Test
    void nullFromTheLookupIsAnError() {
        Block block = block(coinbase(P2PKH), spend(0, P2WPKH));
        assertThrows(IllegalStateException.class, () -> BasicFilter.build(block, outpoint -> null));
    }

    @Test
    void inInputOrderRejectsAWrongNumberOfScripts() {
        Block block = block(coinbase(P2PKH), spend(0, P2WPKH), spend(1, P2WPKH));
        assertThrows(IllegalArgumentException.class, () -> PrevoutScripts.inInputOrder(block, List.of(P2PKH)));
        assertThrows(
                IllegalArgumentException.class, () -> PrevoutScripts.inInputOrder(block, List.of(P2PKH, P2PKH, P2PKH)));
    }

    @Test
    void fromMapThrowsForAnUnknownOutpoint() {
        PrevoutScripts lookup = PrevoutScripts.fromMap(Map.of(new TransactionOutPoint(0, FUNDING_TX), P2PKH));
        assertArrayEquals(P2PKH, lookup.scriptFor(new TransactionOutPoint(0, FUNDING_TX)));
        assertThrows(NoSuchElementException.class, () -> lookup.scriptFor(new TransactionOutPoint(1, FUNDING_TX)));
    }

    @Test
    void keyIsTheFirstSixteenBytesOfTheBlockHashInWireOrder() {
        Sha256Hash hash = Sha256Hash.wrap("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
        assertArrayEquals(hex("1f1e1d1c1b1a19181716151413121110"), BasicFilter.key(hash));
    }

    @Test
    void emptyFilterDecodesAndMatchesNothing() {
        BasicFilter filter = BasicFilter.fromBytes(Sha256Hash.ZERO_HASH, new byte[] {0});
        assertEquals(0, filter.size());
        assertFalse(filter.match(P2PKH));
        assertFalse(filter.matchAny(List.of(P2PKH)));
        assertEquals(
                FilterHeaders.next(
                        Sha256Hash.wrapReversed(Sha256Hash.hashTwice(new byte[] {0})), FilterHeaders.GENESIS_PREV),
                filter.header(FilterHeaders.GENESIS_PREV));
    }

    @Test
    void emptyQueryMatchesNothing() {
        BasicFilter filter = BasicFilter.build(block(coinbase(P2PKH)), prevouts());
        assertFalse(filter.matchAny(List.of()));
        assertFalse(filter.matchAnyElement(List.of()));
        assertTrue(filter.matchAnyElement(List.of(FilterElement.of(P2PKH))));
    }

    @Test
    void filterHashIsDoubleSha256OfTheBytesInDisplayOrder() {
        BasicFilter filter = BasicFilter.build(block(coinbase(P2PKH, P2WPKH)), prevouts());
        assertEquals(Sha256Hash.wrapReversed(Sha256Hash.hashTwice(filter.bytes())), filter.filterHash());
    }

    @Test
    void equalityIsByBlockHashAndBytes() {
        Block block = block(coinbase(P2PKH, P2WPKH));
        BasicFilter a = BasicFilter.build(block, prevouts());
        BasicFilter b = BasicFilter.fromBytes(block.getHash(), a.bytes());
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertNotEquals(a, BasicFilter.fromBytes(Sha256Hash.ZERO_HASH, a.bytes()));
    }

    @Test
    void fromBytesRejectsMalformedFilters() {
        assertThrows(FilterFormatException.class, () -> BasicFilter.fromBytes(Sha256Hash.ZERO_HASH, new byte[0]));
        assertThrows(FilterFormatException.class, () -> BasicFilter.fromBytes(Sha256Hash.ZERO_HASH, hex("0100")));
    }

    @Test
    void bytesAreACopy() {
        BasicFilter filter = BasicFilter.build(block(coinbase(P2PKH)), prevouts());
        byte[] bytes = filter.bytes();
        bytes[1] ^= (byte) 0xff;
        assertNotEquals(HexFormat.of().formatHex(bytes), HexFormat.of().formatHex(filter.bytes()));
    }

    @Test
    void elementsKeepBlockOrderOutputsFirst() {
        byte[] spent = hex("51");
        Block block = block(coinbase(P2WPKH), spend(0, P2PKH));
        List<FilterElement> order = new ArrayList<>(elementsOf(block, prevouts(spent)));
        assertEquals(List.of(FilterElement.of(P2WPKH), FilterElement.of(P2PKH), FilterElement.of(spent)), order);
    }
}
