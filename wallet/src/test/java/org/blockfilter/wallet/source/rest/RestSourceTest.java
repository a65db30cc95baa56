package org.blockfilter.wallet.source.rest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.params.RegTestParams;
import org.blockfilter.filters.wire.WireWriter;
import org.blockfilter.wallet.internal.WalletHttp;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.NotAcceptedException;
import org.blockfilter.wallet.source.SourceException;
import org.blockfilter.wallet.source.rest.FakeRestServer.Answer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class RestSourceTest {
    private static final Sha256Hash STOP = Sha256Hash.of(new byte[] {1});
    private static final Sha256Hash A = Sha256Hash.of(new byte[] {2});
    private static final Sha256Hash B = Sha256Hash.of(new byte[] {3});

    private FakeRestServer server;
    private RestSource source;

    @BeforeEach
    void start() throws IOException {
        server = new FakeRestServer();
        source = RestSource.create(server.uri(), Duration.ofSeconds(5));
    }

    @AfterEach
    void stop() {
        source.close();
        server.close();
    }

    private SourceException assertSourceError(Executable call, String expectedFragment) {
        SourceException e = assertThrows(SourceException.class, call);
        assertEquals(source.name(), e.source());
        assertTrue(e.getMessage().contains(expectedFragment), () -> "message: " + e.getMessage());
        return e;
    }

    // --- status ---

    @Test
    void nameSaysRestAndTheBaseUri() {
        assertEquals("rest:" + server.uri(), source.name());
    }

    @Test
    void tipHeightIsTheIndexedHeightFromStatus() {
        server.answer(
                "/api/v1/status",
                Answer.json(
                        200,
                        "{\"network\":\"regtest\",\"indexedHeight\":321,\"indexedHash\":\"00\",\"nodeHeight\":330,\"synced\":false}"));
        assertEquals(321, source.tipHeight());
        assertEquals("application/json", server.seen("/api/v1/status").accept());
    }

    @Test
    void requestsNameTheWalletAsTheirUserAgent() {
        server.answer("/api/v1/status", Answer.json(200, "{\"indexedHeight\":1}"));
        source.tipHeight();
        assertEquals(WalletHttp.USER_AGENT, server.seen("/api/v1/status").userAgent());
    }

    @Test
    void aRedirectIsAnErrorAndIsNotFollowed() {
        server.answer("/api/v1/status", Answer.json(302, "{}").withHeader("Location", "/elsewhere"));
        server.answer("/elsewhere", Answer.json(200, "{\"indexedHeight\":1}"));
        assertSourceError(source::tipHeight, "HTTP 302");
        assertNull(server.seen("/elsewhere"));
    }

    @Test
    void statusWithoutIndexedHeightIsRejected() {
        server.answer("/api/v1/status", Answer.json(200, "{\"indexedHeight\":\"12\"}"));
        assertSourceError(source::tipHeight, "indexedHeight");
    }

    @Test
    void malformedJsonIsRejected() {
        server.answer("/api/v1/status", Answer.json(200, "{\"indexedHeight\":"));
        assertSourceError(source::tipHeight, "malformed JSON");
    }

    // --- headers ---

    @Test
    void blockHeadersSplitsTheBodyInto80ByteHeadersAndAsksForBinary() {
        byte[] body = new byte[160];
        new Random(1).nextBytes(body);
        server.answer("/api/v1/headers?start_height=7&count=2", Answer.binary(body));
        List<byte[]> headers = source.blockHeaders(7, 2);
        assertEquals(2, headers.size());
        assertArrayEquals(Arrays.copyOfRange(body, 0, 80), headers.get(0));
        assertArrayEquals(Arrays.copyOfRange(body, 80, 160), headers.get(1));
        assertEquals(
                "application/octet-stream",
                server.seen("/api/v1/headers?start_height=7&count=2").accept());
    }

    @Test
    void headersBodyThatIsNotAMultipleOf80IsRejected() {
        server.answer("/api/v1/headers?start_height=0&count=2", Answer.binary(new byte[159]));
        assertSourceError(() -> source.blockHeaders(0, 2), "multiple of 80");
    }

    @Test
    void moreHeadersThanAskedForAreRejectedAsTooLarge() {
        server.answer("/api/v1/headers?start_height=0&count=1", Answer.binary(new byte[160]));
        assertSourceError(() -> source.blockHeaders(0, 1), "larger than 80 bytes");
    }

    @Test
    void jsonWhereBinaryWasAskedForIsRejected() {
        server.answer("/api/v1/headers?start_height=0&count=1", Answer.json(200, "{\"headers\":[]}"));
        assertSourceError(() -> source.blockHeaders(0, 1), "expected application/octet-stream");
    }

    // --- filter headers ---

    @Test
    void filterHeadersDecodeThePrevHeaderAndHashesFromWireOrder() {
        byte[] body = new WireWriter().hash(STOP).compactSize(2).hash(A).hash(B).toByteArray();
        server.answer("/api/v1/filter-headers?start_height=5&stop_hash=" + STOP, Answer.binary(body));
        ChainSource.FilterHashBatch fh = source.filterHeaders(5, STOP);
        assertEquals(STOP, fh.previousHeader());
        assertEquals(List.of(A, B), fh.filterHashes());
    }

    @Test
    void filterHeadersWithCountAboveTheBip157MaximumAreRejected() {
        byte[] body = new WireWriter().hash(STOP).compactSize(2001).hash(A).toByteArray();
        server.answer("/api/v1/filter-headers?start_height=5&stop_hash=" + STOP, Answer.binary(body));
        assertSourceError(() -> source.filterHeaders(5, STOP), "CompactSize 2001 exceeds 2000");
    }

    @Test
    void filterHeadersWithACountThatRunsPastTheEndAreRejected() {
        byte[] body = new WireWriter().hash(STOP).compactSize(3).hash(A).hash(B).toByteArray();
        server.answer("/api/v1/filter-headers?start_height=5&stop_hash=" + STOP, Answer.binary(body));
        assertSourceError(() -> source.filterHeaders(5, STOP), "count = 3 at byte offset 32: count needs 96 bytes");
    }

    @Test
    void filterHeadersWithTrailingBytesAreRejected() {
        byte[] body = new WireWriter().hash(STOP).compactSize(1).hash(A).u8(0).toByteArray();
        server.answer("/api/v1/filter-headers?start_height=5&stop_hash=" + STOP, Answer.binary(body));
        assertSourceError(() -> source.filterHeaders(5, STOP), "1 trailing bytes");
    }

    @Test
    void nonCanonicalCompactSizeIsRejected() {
        byte[] body = new WireWriter().hash(STOP).u8(0xfd).u8(1).u8(0).hash(A).toByteArray();
        server.answer("/api/v1/filter-headers?start_height=5&stop_hash=" + STOP, Answer.binary(body));
        assertSourceError(
                () -> source.filterHeaders(5, STOP), "count = 1 at byte offset 32: non-canonical CompactSize");
    }

    // --- checkpoints ---

    @Test
    void filterHeadersBodyLongerThan2000HashesIsCutOff() {
        server.answer(
                "/api/v1/filter-headers?start_height=5&stop_hash=" + STOP, Answer.binary(new byte[32 + 3 + 2001 * 32]));
        assertSourceError(() -> source.filterHeaders(5, STOP), "larger than");
    }

    @Test
    void checkpointsDecodeInOrder() {
        byte[] body = new WireWriter().compactSize(2).hash(A).hash(B).toByteArray();
        server.answer("/api/v1/checkpoints?stop_hash=" + STOP, Answer.binary(body));
        assertEquals(List.of(A, B), source.filterCheckpoints(STOP));
    }

    @Test
    void noCheckpointsIsAnEmptyList() {
        server.answer("/api/v1/checkpoints?stop_hash=" + STOP, Answer.binary(new byte[] {0}));
        assertEquals(List.of(), source.filterCheckpoints(STOP));
    }

    @Test
    void checkpointsClaimingAHugeCountAreRejectedWithoutAllocating() {
        byte[] body = new WireWriter().compactSize(100_000).hash(A).toByteArray();
        server.answer("/api/v1/checkpoints?stop_hash=" + STOP, Answer.binary(body));
        assertSourceError(() -> source.filterCheckpoints(STOP), "count = 100000 at byte offset 0: count needs");
    }

    // --- filters ---

    @Test
    void filtersDecodeHashAndBytesPerBlock() {
        byte[] body = new WireWriter()
                .hash(A)
                .varBytes(new byte[] {1, 2, 3})
                .hash(STOP)
                .varBytes(new byte[] {0})
                .toByteArray();
        server.answer("/api/v1/filters?start_height=3&stop_hash=" + STOP, Answer.binary(body));
        assertEquals(
                List.of(
                        new ChainSource.BlockFilterBytes(A, new byte[] {1, 2, 3}),
                        new ChainSource.BlockFilterBytes(STOP, new byte[] {0})),
                source.filters(3, STOP));
    }

    @Test
    void filtersThatDoNotEndAtTheStopHashAreRejected() {
        byte[] body = new WireWriter().hash(A).varBytes(new byte[] {0}).toByteArray();
        server.answer("/api/v1/filters?start_height=3&stop_hash=" + STOP, Answer.binary(body));
        assertSourceError(() -> source.filters(3, STOP), "not the stop hash");
    }

    @Test
    void emptyFiltersAnswerIsRejected() {
        server.answer("/api/v1/filters?start_height=3&stop_hash=" + STOP, Answer.binary(new byte[0]));
        assertSourceError(() -> source.filters(3, STOP), "empty answer");
    }

    @Test
    void filterWhoseLengthRunsPastTheEndIsRejected() {
        byte[] body = new WireWriter()
                .hash(STOP)
                .compactSize(10)
                .bytes(new byte[] {1, 2})
                .toByteArray();
        server.answer("/api/v1/filters?start_height=3&stop_hash=" + STOP, Answer.binary(body));
        assertSourceError(() -> source.filters(3, STOP), "filters[0].filter");
    }

    @Test
    void moreThan1000FiltersAreRejected() {
        WireWriter w = new WireWriter();
        for (int i = 0; i < 1001; i++) {
            w.hash(i == 1000 ? STOP : A).varBytes(new byte[] {0});
        }
        server.answer("/api/v1/filters?start_height=3&stop_hash=" + STOP, Answer.binary(w.toByteArray()));
        assertSourceError(() -> source.filters(3, STOP), "more than 1000 filters");
    }

    @Test
    void filterLargerThanTheLimitIsRejected() {
        RestSource small =
                RestSource.create(server.uri(), Duration.ofSeconds(5), new RestSource.Limits(1024, 10, 1 << 20, 10));
        byte[] body = new WireWriter().hash(STOP).varBytes(new byte[11]).toByteArray();
        server.answer("/api/v1/filters?start_height=3&stop_hash=" + STOP, Answer.binary(body));
        try (small) {
            SourceException e = assertThrows(SourceException.class, () -> small.filters(3, STOP));
            assertTrue(e.getMessage().contains("CompactSize 11 exceeds 10"), e.getMessage());
        }
    }

    @Test
    void streamedBodyLargerThanTheLimitIsCutOff() {
        RestSource small =
                RestSource.create(server.uri(), Duration.ofSeconds(5), new RestSource.Limits(1024, 10, 1000, 10));
        server.answer(
                "/api/v1/filters?start_height=3&stop_hash=" + STOP,
                Answer.binary(new byte[1_000_000]).chunkedBody());
        try (small) {
            SourceException e = assertThrows(SourceException.class, () -> small.filters(3, STOP));
            assertTrue(e.getMessage().contains("larger than 1000 bytes"), e.getMessage());
        }
    }

    // --- blocks ---

    @Test
    void blockIsReturnedWhenItHashesToTheRequestedHash() {
        Block genesis = RegTestParams.get().getGenesisBlock();
        server.answer("/api/v1/blocks/" + genesis.getHash(), Answer.binary(genesis.serialize()));
        assertArrayEquals(genesis.serialize(), source.block(genesis.getHash()));
    }

    @Test
    void blockForAnotherHashIsRejected() {
        Block genesis = RegTestParams.get().getGenesisBlock();
        server.answer("/api/v1/blocks/" + A, Answer.binary(genesis.serialize()));
        assertSourceError(() -> source.block(A), "answered block " + genesis.getHash());
    }

    @Test
    void truncatedBlockIsRejected() {
        Block genesis = RegTestParams.get().getGenesisBlock();
        byte[] raw = genesis.serialize();
        server.answer("/api/v1/blocks/" + genesis.getHash(), Answer.binary(Arrays.copyOf(raw, raw.length - 1)));
        assertSourceError(() -> source.block(genesis.getHash()), "does not parse");
    }

    @Test
    void blockWithTrailingBytesIsRejected() {
        Block genesis = RegTestParams.get().getGenesisBlock();
        byte[] raw = Arrays.copyOf(genesis.serialize(), genesis.serialize().length + 2);
        server.answer("/api/v1/blocks/" + genesis.getHash(), Answer.binary(raw));
        assertSourceError(() -> source.block(genesis.getHash()), "2 trailing bytes");
    }

    @Test
    void unknownBlockNamesTheServersErrorCode() {
        server.answer(
                "/api/v1/blocks/" + A,
                Answer.json(
                        404,
                        "{\"error\":{\"status\":404,\"code\":\"unknown_block\",\"message\":\"no block " + A + "\"}}"));
        assertSourceError(() -> source.block(A), "HTTP 404 unknown_block: no block " + A);
    }

    @Test
    void indexBehindSaysWhenToRetry() {
        server.answer(
                "/api/v1/filters?start_height=3&stop_hash=" + STOP,
                Answer.json(503, "{\"error\":{\"status\":503,\"code\":\"index_behind\",\"message\":\"indexed to 2\"}}")
                        .withHeader("Retry-After", "2"));
        assertSourceError(() -> source.filters(3, STOP), "HTTP 503 index_behind: indexed to 2 (retry after 2 s)");
    }

    @Test
    void errorWithoutOurShapeStillNamesTheStatus() {
        server.answer(
                "/api/v1/status",
                new Answer(500, "text/html", "<html>oops</html>".getBytes(), java.util.Map.of(), false, false));
        assertSourceError(source::tipHeight, "HTTP 500");
    }

    // --- broadcast ---

    private static byte[] someTransaction() {
        return RegTestParams.get().getGenesisBlock().getTransactions().get(0).serialize();
    }

    @Test
    void broadcastPostsTheRawTransactionAndReturnsItsTxid() {
        byte[] raw = someTransaction();
        Sha256Hash txid = Transaction.read(java.nio.ByteBuffer.wrap(raw)).getTxId();
        server.answer("/api/v1/transactions", Answer.json(200, "{\"txid\":\"" + txid + "\"}"));
        assertEquals(txid, source.broadcast(raw));
        FakeRestServer.Seen seen = server.seen("/api/v1/transactions");
        assertEquals("POST", seen.method());
        assertEquals("application/octet-stream", seen.contentType());
        assertArrayEquals(raw, seen.body());
    }

    @Test
    void broadcastAnsweredWithAnotherTxidIsRejected() {
        server.answer("/api/v1/transactions", Answer.json(200, "{\"txid\":\"" + A + "\"}"));
        assertSourceError(() -> source.broadcast(someTransaction()), "answered txid");
    }

    @Test
    void nodeRejectionCarriesItsReason() {
        server.answer(
                "/api/v1/transactions",
                Answer.json(
                        400,
                        "{\"error\":{\"status\":400,\"code\":\"tx_rejected\",\"message\":\"bad-txns-inputs-missingorspent\"}}"));
        assertSourceError(() -> source.broadcast(someTransaction()), "tx_rejected: bad-txns-inputs-missingorspent");
        assertThrows(NotAcceptedException.class, () -> source.broadcast(someTransaction()));
    }

    @Test
    void aServerErrorOnBroadcastIsAFailureNotARefusal() {
        server.answer("/api/v1/transactions", Answer.json(503, "{\"error\":{\"code\":\"node_unavailable\"}}"));
        SourceException e = assertThrows(SourceException.class, () -> source.broadcast(someTransaction()));
        assertFalse(e instanceof NotAcceptedException, e.getMessage());
    }

    @Test
    void broadcastOfBytesThatAreNotATransactionIsTheCallersError() {
        assertThrows(IllegalArgumentException.class, () -> source.broadcast(new byte[] {1, 2, 3}));
    }

    // --- transport failures ---

    @Test
    void serverThatNeverAnswersTimesOut() {
        RestSource impatient = RestSource.create(server.uri(), Duration.ofMillis(300));
        server.answer("/api/v1/status", Answer.hanging());
        try (impatient) {
            SourceException e = assertThrows(SourceException.class, impatient::tipHeight);
            assertTrue(e.getMessage().contains("no complete answer within 300 ms"), e.getMessage());
        }
    }

    @Test
    void refusedConnectionIsASourceError() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        try (RestSource nobody = RestSource.create(URI.create("http://127.0.0.1:" + port), Duration.ofSeconds(2))) {
            SourceException e = assertThrows(SourceException.class, nobody::tipHeight);
            assertTrue(e.getMessage().contains("connection failed"), e.getMessage());
        }
    }

    @Test
    void closedSourceRefusesCalls() {
        source.close();
        assertSourceError(source::tipHeight, "closed");
    }

    @Test
    void randomBlockBodiesOnlyEverGiveAnswersOrSourceErrors() {
        Random random = new Random(42);
        Block genesis = RegTestParams.get().getGenesisBlock();
        for (int i = 0; i < 20; i++) {
            byte[] block = genesis.serialize();
            byte[] noise = new byte[1 + random.nextInt(40)];
            random.nextBytes(noise);
            System.arraycopy(noise, 0, block, 80 + random.nextInt(block.length - 80 - noise.length), noise.length);
            server.answer("/api/v1/blocks/" + genesis.getHash(), Answer.binary(block));
            try {
                source.block(genesis.getHash());
            } catch (SourceException expected) {
                assertEquals(source.name(), expected.source());
            }
        }
    }

    @Test
    void feeEstimateIsTheServersAnswerForTheTargetWithItsSource() {
        server.answer(
                "/api/v1/fee-estimates?target=6",
                Answer.json(
                        200,
                        "{\"source\":\"estimatesmartfee\",\"estimates\":[{\"target\":6,\"satPerVByte\":12.345,"
                                + "\"blocks\":5,\"error\":null}]}"));
        org.blockfilter.wallet.source.FeeEstimate e = source.feeEstimate(6);
        assertEquals(12.345, e.satPerVByte().getAsDouble(), 1e-9);
        assertTrue(e.detail().contains("estimatesmartfee, for 5 blocks"), e.detail());
    }

    @Test
    void feeEstimateOfANodeWithoutOneGivesTheNodesReason() {
        server.answer(
                "/api/v1/fee-estimates?target=2",
                Answer.json(
                        200,
                        "{\"source\":\"estimatesmartfee\",\"estimates\":[{\"target\":2,\"satPerVByte\":null,"
                                + "\"blocks\":0,\"error\":\"Insufficient data or no feerate found\"}]}"));
        org.blockfilter.wallet.source.FeeEstimate e = source.feeEstimate(2);
        assertTrue(e.satPerVByte().isEmpty());
        assertTrue(e.detail().contains("Insufficient data or no feerate found"), e.detail());
    }

    @Test
    void feeEstimateOfTheWrongShapeIsASourceError() {
        server.answer(
                "/api/v1/fee-estimates?target=3",
                Answer.json(200, "{\"source\":\"x\",\"estimates\":[{\"target\":3,\"satPerVByte\":-4}]}"));
        assertSourceError(() -> source.feeEstimate(3), "satPerVByte must be a positive number");
        server.answer(
                "/api/v1/fee-estimates?target=4",
                Answer.json(200, "{\"source\":\"x\",\"estimates\":[{\"target\":5,\"satPerVByte\":4}]}"));
        assertSourceError(() -> source.feeEstimate(4), "answered for target 5");
        server.answer("/api/v1/fee-estimates?target=7", Answer.json(404, "{}"));
        assertSourceError(() -> source.feeEstimate(7), "404");
    }
}
