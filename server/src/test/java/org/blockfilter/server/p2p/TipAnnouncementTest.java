package org.blockfilter.server.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.p2p.Message;
import org.blockfilter.server.http.P2pFixtures;
import org.blockfilter.server.read.FilterIndexReader;
import org.blockfilter.server.read.IndexedFilter;
import org.blockfilter.server.store.ChainTip;
import org.junit.jupiter.api.Test;

/**
 * New tips reach connected peers as Core announces them: up to 8 new blocks as {@code headers}
 * to a peer that sent {@code sendheaders}, an {@code inv} of the tip otherwise and to everyone
 * else.
 */
class TipAnnouncementTest {
    private static final P2pFixtures.Fixture CHAIN = P2pFixtures.build(200);

    /** The fixture's index cut at a movable tip. */
    private record GrowingIndex(FilterIndexReader full, AtomicInteger cut) implements FilterIndexReader {
        @Override
        public ChainTip tip() {
            return new ChainTip(cut.get(), full.hashAt(cut.get()).orElseThrow());
        }

        @Override
        public Optional<Sha256Hash> hashAt(int height) {
            return height <= cut.get() ? full.hashAt(height) : Optional.empty();
        }

        @Override
        public OptionalInt heightOf(Sha256Hash blockHash) {
            OptionalInt h = full.heightOf(blockHash);
            return h.isPresent() && h.getAsInt() <= cut.get() ? h : OptionalInt.empty();
        }

        @Override
        public Optional<IndexedFilter> filter(Sha256Hash blockHash) {
            return heightOf(blockHash).isPresent() ? full.filter(blockHash) : Optional.empty();
        }

        @Override
        public Optional<List<IndexedFilter>> range(int startHeight, Sha256Hash stopHash) {
            return heightOf(stopHash).isPresent() ? full.range(startHeight, stopHash) : Optional.empty();
        }

        @Override
        public Optional<byte[]> blockHeader(Sha256Hash blockHash) {
            return heightOf(blockHash).isPresent() ? full.blockHeader(blockHash) : Optional.empty();
        }
    }

    private static Sha256Hash hashAt(int h) {
        return CHAIN.active().get(h).blockHash();
    }

    @Test
    void fewNewBlocksGoAsHeadersToSendheadersPeersAndAsAnInvOfTheTipOtherwise() throws IOException {
        AtomicInteger tip = new AtomicInteger(100);
        try (P2pServer server = P2pServer.start(
                        P2pConfig.forChain(Chain.REGTEST).withTipPollInterval(Duration.ofMillis(20)),
                        new GrowingIndex(CHAIN.index(), tip),
                        CHAIN.node(),
                        new SimpleMeterRegistry());
                TestPeer headersPeer = TestPeer.handshake(server);
                TestPeer invPeer = TestPeer.handshake(server)) {
            headersPeer.raw(
                    org.blockfilter.server.p2p.internal.PeerSession.frame(TestPeer.MAGIC, "sendheaders", new byte[0]));
            headersPeer.send(new Message.Ping(1)); // the pong proves sendheaders was processed
            headersPeer.expect("pong");

            tip.set(102);
            List<byte[]> announced = ((Message.Headers) headersPeer.expect("headers")).headers();
            assertEquals(2, announced.size());
            assertArrayEquals(CHAIN.headers().get(hashAt(101)), announced.get(0));
            assertArrayEquals(CHAIN.headers().get(hashAt(102)), announced.get(1));
            assertEquals(
                    List.of(new Message.InvItem(Message.MSG_BLOCK, hashAt(102))),
                    ((Message.Inv) invPeer.expect("inv")).items());

            tip.set(120); // more than 8 new blocks: an inv of the tip, as Core
            assertEquals(
                    List.of(new Message.InvItem(Message.MSG_BLOCK, hashAt(120))),
                    ((Message.Inv) headersPeer.expect("inv")).items());
            assertEquals(
                    List.of(new Message.InvItem(Message.MSG_BLOCK, hashAt(120))),
                    ((Message.Inv) invPeer.expect("inv")).items());
        }
    }
}
