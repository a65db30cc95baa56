package org.blockfilter.wallet.source.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.BiFunction;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.params.RegTestParams;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.p2p.Message;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.SourceException;
import org.blockfilter.wallet.source.p2p.internal.PeerHeaderChain;
import org.junit.jupiter.api.Test;

/** P2pSource against a scripted peer: handshake rules, retries on silence, and strict answers. */
class P2pSourceTest {
    private static final long SERVES_FILTERS = Message.NODE_WITNESS | Message.NODE_COMPACT_FILTERS;
    /** The scripted peer speaks v1 only, and these tests count its connections: no v2 attempt first. */
    private static final P2pSource.Options FAST = P2pSource.Options.DEFAULT
            .withTimeout(Duration.ofMillis(500))
            .withAttempts(2)
            .withTransport(P2pTransport.V1);

    /** Three headers on regtest genesis (heights 1..3); proof of work is not this layer's check. */
    private static final List<byte[]> CHAIN = chain(3);

    private static List<byte[]> chain(int n) {
        List<byte[]> out = new ArrayList<>();
        byte[] prev = FakePeer.genesisHeader();
        for (int i = 0; i < n; i++) {
            byte[] h = new byte[80];
            System.arraycopy(PeerHeaderChain.hashOf(prev).serialize(), 0, h, 4, 32);
            h[76] = (byte) i;
            out.add(h);
            prev = h;
        }
        return out;
    }

    private static Sha256Hash hashAt(int height) {
        return PeerHeaderChain.hashOf(CHAIN.get(height - 1));
    }

    /** Answers getheaders with CHAIN, then whatever {@code rest} says. */
    private static BiFunction<Integer, Message, List<Message>> withHeaders(
            BiFunction<Integer, Message, List<Message>> rest) {
        return (n, m) -> m instanceof Message.GetHeaders ? List.of(new Message.Headers(CHAIN)) : rest.apply(n, m);
    }

    @Test
    void peerWithoutCompactFiltersServiceIsRefusedAtConnect() throws IOException {
        try (FakePeer peer = new FakePeer(Message.NODE_WITNESS | 1, (n, m) -> List.of())) {
            SourceException e =
                    assertThrows(SourceException.class, () -> P2pSource.connect(peer.address(), Chain.REGTEST, FAST));
            assertTrue(e.getMessage().contains("does not advertise NODE_COMPACT_FILTERS"), e.getMessage());
            assertEquals("p2p:127.0.0.1:" + peer.address().getPort(), e.source());
        }
    }

    @Test
    void aV1OnlyPeerThatClosesOnOurV2KeyIsReachedOverV1AndV2OnlySaysWhy() throws IOException {
        try (FakePeer peer = new FakePeer(SERVES_FILTERS, withHeaders((n, m) -> List.of()))) {
            try (P2pSource source =
                    P2pSource.connect(peer.address(), Chain.REGTEST, FAST.withTransport(P2pTransport.AUTO))) {
                assertEquals(3, source.tipHeight());
            }
            assertEquals(2, peer.connections(), "the v2 attempt, then v1");
            SourceException e = assertThrows(
                    SourceException.class,
                    () -> P2pSource.connect(
                            peer.address(), Chain.REGTEST, FAST.withAttempts(1).withTransport(P2pTransport.V2)));
            assertTrue(e.getMessage().contains("BIP 324 v2 transport failed"), e.getMessage());
        }
    }

    @Test
    void aPeerHasNoFeeEstimateAndTheAnswerSaysWhatToDo() throws IOException {
        try (FakePeer peer = new FakePeer(SERVES_FILTERS, withHeaders((n, m) -> List.of()));
                P2pSource source = P2pSource.connect(peer.address(), Chain.REGTEST, FAST)) {
            org.blockfilter.wallet.source.FeeEstimate e = source.feeEstimate(6);
            assertTrue(e.satPerVByte().isEmpty());
            assertTrue(
                    e.detail().contains("serves no fee estimates") && e.detail().contains("--fee-rate"), e.detail());
        }
    }

    @Test
    void tipAndHeadersComeFromTheSyncedHeaderChain() throws IOException {
        try (FakePeer peer = new FakePeer(SERVES_FILTERS, withHeaders((n, m) -> List.of()));
                P2pSource source = P2pSource.connect(peer.address(), Chain.REGTEST, FAST)) {
            assertEquals(3, source.tipHeight());
            List<byte[]> headers = source.blockHeaders(2, 10);
            assertEquals(2, headers.size());
            assertArrayEquals(CHAIN.get(1), headers.get(0));
            assertArrayEquals(
                    FakePeer.genesisHeader(), source.blockHeaders(0, 1).get(0));
        }
    }

    @Test
    void requestThePeerIgnoresOnceIsRetriedOnAFreshConnection() throws IOException {
        Sha256Hash prev = Sha256Hash.of(new byte[] {4});
        List<Sha256Hash> hashes = List.of(Sha256Hash.of(new byte[] {5}), Sha256Hash.of(new byte[] {6}));
        try (FakePeer peer = new FakePeer(
                        SERVES_FILTERS,
                        withHeaders((n, m) -> m instanceof Message.GetCFHeaders g && n >= 2
                                ? List.of(new Message.Ping(1), new Message.CFHeaders(0, g.stopHash(), prev, hashes))
                                : List.of()));
                P2pSource source = P2pSource.connect(peer.address(), Chain.REGTEST, FAST)) {
            ChainSource.FilterHashBatch fh = source.filterHeaders(2, hashAt(3));
            assertEquals(prev, fh.previousHeader());
            assertEquals(hashes, fh.filterHashes());
            assertEquals(2, peer.connections());
        }
    }

    @Test
    void peerThatStaysSilentIsNamedAfterTheLastAttempt() throws IOException {
        try (FakePeer peer = new FakePeer(SERVES_FILTERS, withHeaders((n, m) -> List.of()));
                P2pSource source = P2pSource.connect(peer.address(), Chain.REGTEST, FAST)) {
            SourceException e = assertThrows(SourceException.class, () -> source.filterCheckpoints(hashAt(3)));
            assertTrue(e.getMessage().contains("getcfcheckpt: no answer after 2 attempts"), e.getMessage());
        }
    }

    @Test
    void cfiltersMustBeForTheBlocksOfTheRangeInOrder() throws IOException {
        try (FakePeer peer = new FakePeer(
                        SERVES_FILTERS,
                        withHeaders((n, m) -> m instanceof Message.GetCFilters
                                ? List.of(
                                        new Message.CFilter(0, hashAt(1), new byte[] {0}),
                                        new Message.CFilter(0, hashAt(3), new byte[] {0}))
                                : List.of()));
                P2pSource source = P2pSource.connect(peer.address(), Chain.REGTEST, FAST)) {
            SourceException e = assertThrows(SourceException.class, () -> source.filters(1, hashAt(3)));
            assertTrue(e.getMessage().contains("cfilter #1 is for block " + hashAt(3)), e.getMessage());
        }
    }

    @Test
    void cfiltersForTheRangeAreReturnedInHeightOrder() throws IOException {
        try (FakePeer peer = new FakePeer(
                        SERVES_FILTERS,
                        withHeaders((n, m) -> m instanceof Message.GetCFilters
                                ? List.of(
                                        new Message.Inv(List.of()),
                                        new Message.CFilter(0, hashAt(2), new byte[] {1, 7}),
                                        new Message.CFilter(0, hashAt(3), new byte[] {0}))
                                : List.of()));
                P2pSource source = P2pSource.connect(peer.address(), Chain.REGTEST, FAST)) {
            assertEquals(
                    List.of(
                            new ChainSource.BlockFilterBytes(hashAt(2), new byte[] {1, 7}),
                            new ChainSource.BlockFilterBytes(hashAt(3), new byte[] {0})),
                    source.filters(2, hashAt(3)));
        }
    }

    @Test
    void cfheadersWithTheWrongCountAreRejected() throws IOException {
        try (FakePeer peer = new FakePeer(
                        SERVES_FILTERS,
                        withHeaders((n, m) -> m instanceof Message.GetCFHeaders g
                                ? List.of(new Message.CFHeaders(
                                        0,
                                        g.stopHash(),
                                        Sha256Hash.ZERO_HASH,
                                        Collections.nCopies(5, Sha256Hash.ZERO_HASH)))
                                : List.of()));
                P2pSource source = P2pSource.connect(peer.address(), Chain.REGTEST, FAST)) {
            SourceException e = assertThrows(SourceException.class, () -> source.filterHeaders(1, hashAt(3)));
            assertTrue(e.getMessage().contains("5 filter hashes for 3 blocks"), e.getMessage());
        }
    }

    @Test
    void malformedAnswerIsNotRetried() throws IOException {
        try (FakePeer peer = new FakePeer(
                        SERVES_FILTERS,
                        withHeaders((n, m) -> m instanceof Message.GetCFCheckpt
                                ? List.of(new Message.CFCheckpt(1, hashAt(3), List.of()))
                                : List.of()));
                P2pSource source = P2pSource.connect(peer.address(), Chain.REGTEST, FAST)) {
            SourceException e = assertThrows(SourceException.class, () -> source.filterCheckpoints(hashAt(3)));
            assertTrue(e.getMessage().contains("filter type 1"), e.getMessage());
            assertEquals(1, peer.connections());
        }
    }

    @Test
    void stopHashOutsideThePeersChainIsNamed() throws IOException {
        try (FakePeer peer = new FakePeer(SERVES_FILTERS, withHeaders((n, m) -> List.of()));
                P2pSource source = P2pSource.connect(peer.address(), Chain.REGTEST, FAST)) {
            SourceException e =
                    assertThrows(SourceException.class, () -> source.filters(0, Sha256Hash.of(new byte[] {1})));
            assertTrue(e.getMessage().contains("is not in the peer's best chain"), e.getMessage());
        }
    }

    @Test
    void blockThePeerDoesNotHaveIsNamed() throws IOException {
        Sha256Hash missing = Sha256Hash.of(new byte[] {8});
        try (FakePeer peer = new FakePeer(
                        SERVES_FILTERS,
                        withHeaders((n, m) -> m instanceof Message.GetData g
                                ? List.of(new Message.NotFound(g.items()))
                                : List.of()));
                P2pSource source = P2pSource.connect(peer.address(), Chain.REGTEST, FAST)) {
            SourceException e = assertThrows(SourceException.class, () -> source.block(missing));
            assertTrue(e.getMessage().contains("peer does not have block " + missing), e.getMessage());
        }
    }

    @Test
    void blockIsReturnedWhenThePeerSendsIt() throws IOException {
        byte[] genesis = RegTestParams.get().getGenesisBlock().serialize();
        try (FakePeer peer = new FakePeer(
                        SERVES_FILTERS,
                        withHeaders((n, m) -> m instanceof Message.GetData g
                                        && g.items().get(0).type() == Message.MSG_WITNESS_BLOCK
                                ? List.of(new Message.BlockMessage(genesis))
                                : List.of()));
                P2pSource source = P2pSource.connect(peer.address(), Chain.REGTEST, FAST)) {
            assertArrayEquals(
                    genesis, source.block(RegTestParams.get().getGenesisBlock().getHash()));
        }
    }

    @Test
    void closedSourceRefusesCalls() throws IOException {
        try (FakePeer peer = new FakePeer(SERVES_FILTERS, withHeaders((n, m) -> List.of()))) {
            P2pSource source = P2pSource.connect(peer.address(), Chain.REGTEST, FAST);
            source.close();
            assertThrows(SourceException.class, source::tipHeight);
        }
    }

    /** A node with nothing newer than our tip may send nothing at all; it answers the ping. */
    @Test
    void peerThatNeverAnswersAGetheadersFromItsTipIsNotWaitedFor() throws IOException {
        List<Message> received = Collections.synchronizedList(new ArrayList<>());
        try (FakePeer peer = new FakePeer(SERVES_FILTERS, (n, m) -> {
                    received.add(m);
                    if (m instanceof Message.GetHeaders g) {
                        return g.locator().get(0).equals(hashAt(3)) ? List.of() : List.of(new Message.Headers(CHAIN));
                    }
                    return List.of();
                });
                P2pSource source = P2pSource.connect(peer.address(), Chain.REGTEST, FAST)) {
            assertEquals(3, source.tipHeight());

            assertEquals(3, source.tipHeight());
            assertEquals(3, source.blockHeaders(1, 10).size());

            assertEquals(1, peer.connections(), "the peer was never dropped");
            assertTrue(received.stream()
                    .anyMatch(m -> m instanceof Message.GetHeaders g
                            && g.locator().get(0).equals(hashAt(3))));
        }
    }

    @Test
    void announcementsNotfoundAndUnknownMessagesAroundAnAnswerAreIgnored() throws IOException {
        Sha256Hash prev = Sha256Hash.of(new byte[] {4});
        List<Sha256Hash> hashes = List.of(Sha256Hash.of(new byte[] {5}), Sha256Hash.of(new byte[] {6}));
        Message.InvItem someBlock = new Message.InvItem(2, Sha256Hash.of(new byte[] {7}));
        byte[] strayHeader = new byte[80]; // builds on a block we never heard of
        strayHeader[4] = 1;
        List<Message> noise = List.of(
                new Message.Unknown("sendheaders", 0),
                new Message.Inv(List.of(someBlock)),
                new Message.NotFound(List.of(someBlock)),
                new Message.Headers(List.of(strayHeader)),
                new Message.Unknown("sendcmpct", 9),
                new Message.Ping(42));
        try (FakePeer peer = new FakePeer(SERVES_FILTERS, (n, m) -> {
                    List<Message> out = new ArrayList<>(noise);
                    if (m instanceof Message.GetHeaders) {
                        out.add(new Message.Headers(CHAIN));
                    } else if (m instanceof Message.GetCFHeaders g) {
                        out.add(new Message.CFHeaders(0, g.stopHash(), prev, hashes));
                    }
                    out.addAll(noise);
                    return out;
                });
                P2pSource source = P2pSource.connect(peer.address(), Chain.REGTEST, FAST)) {
            assertEquals(3, source.tipHeight());
            assertEquals(hashes, source.filterHeaders(2, hashAt(3)).filterHashes());
            assertEquals(3, source.tipHeight());
            assertEquals(1, peer.connections());
        }
    }

    @Test
    void anUnaskedHeadersAnnouncementOfANewBlockExtendsTheChain() throws IOException {
        List<byte[]> longer = chain(4);
        try (FakePeer peer = new FakePeer(SERVES_FILTERS, (n, m) -> {
                    if (m instanceof Message.GetHeaders g) {
                        // First the three known blocks; from the tip nothing, but the new block announced.
                        return g.locator().get(0).equals(hashAt(3))
                                ? List.of(new Message.Headers(longer.subList(3, 4)))
                                : List.of(new Message.Headers(CHAIN));
                    }
                    return List.of();
                });
                P2pSource source = P2pSource.connect(peer.address(), Chain.REGTEST, FAST)) {
            assertEquals(3, source.tipHeight());
            assertEquals(4, source.tipHeight());
        }
    }
}
