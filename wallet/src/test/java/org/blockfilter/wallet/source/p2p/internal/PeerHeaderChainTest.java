package org.blockfilter.wallet.source.p2p.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.wire.WireFormatException;
import org.junit.jupiter.api.Test;

class PeerHeaderChainTest {
    static final byte[] GENESIS = header(Sha256Hash.ZERO_HASH, 0);

    /** An 80-byte header on {@code prev}; {@code salt} makes siblings differ. */
    static byte[] header(Sha256Hash prev, int salt) {
        byte[] h = new byte[80];
        h[0] = 1;
        System.arraycopy(prev.serialize(), 0, h, 4, 32);
        h[76] = (byte) salt;
        h[77] = (byte) (salt >>> 8);
        return h;
    }

    static List<byte[]> headersOn(byte[] base, int n, int salt) {
        List<byte[]> out = new ArrayList<>();
        byte[] prev = base;
        for (int i = 0; i < n; i++) {
            prev = header(PeerHeaderChain.hashOf(prev), salt + i);
            out.add(prev);
        }
        return out;
    }

    @Test
    void connectedHeadersGetHeightsInOrder() {
        PeerHeaderChain chain = new PeerHeaderChain(GENESIS, 100);
        List<byte[]> hs = headersOn(GENESIS, 5, 1);
        assertEquals(5, chain.connect(hs));
        assertEquals(5, chain.tipHeight());
        assertEquals(OptionalInt.of(3), chain.heightOf(PeerHeaderChain.hashOf(hs.get(2))));
        assertArrayEquals(hs.get(4), chain.headerAt(5));
    }

    @Test
    void reconnectingKnownHeadersAddsNothing() {
        PeerHeaderChain chain = new PeerHeaderChain(GENESIS, 100);
        List<byte[]> hs = headersOn(GENESIS, 5, 1);
        chain.connect(hs);
        assertEquals(0, chain.connect(hs.subList(2, 5)));
        assertEquals(5, chain.tipHeight());
    }

    @Test
    void aForkReplacesEverythingAboveTheForkPoint() {
        PeerHeaderChain chain = new PeerHeaderChain(GENESIS, 100);
        List<byte[]> old = headersOn(GENESIS, 5, 1);
        chain.connect(old);
        List<byte[]> fork = headersOn(old.get(1), 4, 100); // heights 3..6
        assertEquals(4, chain.connect(fork));
        assertEquals(6, chain.tipHeight());
        assertEquals(OptionalInt.empty(), chain.heightOf(PeerHeaderChain.hashOf(old.get(2))));
        assertEquals(OptionalInt.of(3), chain.heightOf(PeerHeaderChain.hashOf(fork.get(0))));
    }

    @Test
    void headersThatDoNotConnectAreRejected() {
        PeerHeaderChain chain = new PeerHeaderChain(GENESIS, 100);
        List<byte[]> stray = headersOn(header(Sha256Hash.of(new byte[] {5}), 0), 2, 1);
        assertThrows(WireFormatException.class, () -> chain.connect(stray));
        assertEquals(0, chain.tipHeight());
    }

    @Test
    void headersThatDoNotLinkToEachOtherAreRejected() {
        PeerHeaderChain chain = new PeerHeaderChain(GENESIS, 100);
        List<byte[]> hs = new ArrayList<>(headersOn(GENESIS, 3, 1));
        hs.set(2, header(Sha256Hash.of(new byte[] {7}), 9));
        WireFormatException e = assertThrows(WireFormatException.class, () -> chain.connect(hs));
        assertEquals("headers[2].prevBlock", e.field());
        assertEquals(0, chain.tipHeight());
    }

    @Test
    void chainCannotGrowPastItsMaximum() {
        PeerHeaderChain chain = new PeerHeaderChain(GENESIS, 3);
        assertThrows(WireFormatException.class, () -> chain.connect(headersOn(GENESIS, 4, 1)));
    }

    @Test
    void locatorStartsAtTheTipAndEndsAtGenesisGettingSparser() {
        PeerHeaderChain chain = new PeerHeaderChain(GENESIS, 1000);
        chain.connect(headersOn(GENESIS, 100, 1));
        List<Sha256Hash> locator = chain.locator();
        assertEquals(chain.hashAt(100), locator.get(0));
        assertEquals(chain.hashAt(91), locator.get(9));
        assertEquals(chain.hashAt(90), locator.get(10));
        assertEquals(chain.hashAt(88), locator.get(11));
        assertEquals(chain.hashAt(0), locator.get(locator.size() - 1));
        assertEquals(
                List.of(chain.hashAt(84), chain.hashAt(76), chain.hashAt(60), chain.hashAt(28), chain.hashAt(0)),
                locator.subList(12, locator.size()));
    }
}
