package org.blockfilter.wallet.legacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.BloomFilter;
import org.bitcoinj.core.FilteredBlock;
import org.bitcoinj.core.PartialMerkleTree;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.params.RegTestParams;
import org.blockfilter.wallet.source.SourceException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ServerBip37ScanTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final Block GENESIS = RegTestParams.get().getGenesisBlock();
    private static final Transaction COINBASE = GENESIS.getTransactions().get(0);

    private HttpServer server;
    private final AtomicReference<String> answer = new AtomicReference<>();
    private final AtomicReference<Integer> status = new AtomicReference<>(200);
    private final AtomicReference<String> request = new AtomicReference<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/v1/bip37/scan", ex -> {
            request.set(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            byte[] body = answer.get().getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(status.get(), body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private ServerBip37Scan client() {
        return ServerBip37Scan.create(
                URI.create("http://127.0.0.1:" + server.getAddress().getPort()), Duration.ofSeconds(5), 1 << 20);
    }

    private static String merkleBlockHex(byte[] includeBits) {
        PartialMerkleTree pmt = PartialMerkleTree.buildFromLeaves(includeBits, List.of(COINBASE.getTxId()));
        return HEX.formatHex(new FilteredBlock(GENESIS.cloneAsHeader(), pmt).serialize());
    }

    private static String answerWith(String hash, String merkleBlock, String tx) {
        return "{\"blocks\":[{\"height\":0,\"hash\":\"" + hash + "\",\"merkleBlock\":\"" + merkleBlock
                + "\",\"transactions\":[\"" + tx + "\"]}],\"cpuNanos\":1234,\"bytes\":567}";
    }

    private static BloomFilter filter() {
        BloomFilter f = new BloomFilter(10, 0.001, 7);
        f.insert(new byte[] {1, 2, 3});
        return f;
    }

    @Test
    void matchedBlocksAreVerifiedAndReturned() {
        answer.set(answerWith(
                GENESIS.getHashAsString(), merkleBlockHex(new byte[] {1}), HEX.formatHex(COINBASE.serialize())));
        ServerBip37Scan.Result r = client().scan(filter(), 0, 10);
        assertEquals(1, r.blocks().size());
        assertEquals(List.of(COINBASE.getTxId()), r.blocks().get(0).matchedTxids());
        assertEquals(List.of(COINBASE.getTxId()), r.blocks().get(0).sentTxids());
        assertEquals(1234, r.cpuNanos());
        assertEquals(567, r.serverBytes());
        assertTrue(request.get().contains("\"filter\":\"" + HEX.formatHex(filter().serialize()) + "\""), request.get());
        assertTrue(
                request.get().contains("\"startHeight\":0") && request.get().contains("\"stopHeight\":10"),
                request.get());
    }

    @Test
    void transactionNotAmongTheMatchesIsRejected() {
        answer.set(answerWith(
                GENESIS.getHashAsString(), merkleBlockHex(new byte[] {0}), HEX.formatHex(COINBASE.serialize())));
        SourceException e = assertThrows(SourceException.class, () -> client().scan(filter(), 0, 10));
        assertTrue(e.getMessage().contains("not in its merkleblock's matches"), e.getMessage());
    }

    @Test
    void merkleBlockForAnotherBlockIsRejected() {
        answer.set(answerWith(
                Sha256Hash.of(new byte[] {1}).toString(),
                merkleBlockHex(new byte[] {1}),
                HEX.formatHex(COINBASE.serialize())));
        SourceException e = assertThrows(SourceException.class, () -> client().scan(filter(), 0, 10));
        assertTrue(e.getMessage().contains("merkleblock at height 0 is for"), e.getMessage());
    }

    @Test
    void treeThatDoesNotHashToTheHeadersMerkleRootIsRejected() {
        String mb = merkleBlockHex(new byte[] {1});
        // Flip a byte of the single leaf hash (after the 80-byte header and the 4-byte tx count and 1-byte hash count).
        int at = (80 + 4 + 1) * 2;
        String tampered = mb.substring(0, at) + (mb.charAt(at) == '0' ? '1' : '0') + mb.substring(at + 1);
        answer.set(answerWith(GENESIS.getHashAsString(), tampered, HEX.formatHex(COINBASE.serialize())));
        SourceException e = assertThrows(SourceException.class, () -> client().scan(filter(), 0, 10));
        assertTrue(e.getMessage().contains("Merkle root"), e.getMessage());
    }

    @Test
    void serverErrorIsASourceErrorNamingTheEndpoint() {
        status.set(400);
        answer.set("{\"error\":{\"status\":400,\"code\":\"bad_filter\",\"message\":\"too many hash functions\"}}");
        SourceException e = assertThrows(SourceException.class, () -> client().scan(filter(), 0, 10));
        assertTrue(e.source().startsWith("rest-bip37:http://127.0.0.1:"), e.source());
        assertTrue(e.getMessage().contains("bad_filter"), e.getMessage());
    }

    @Test
    void garbageIsASourceError() {
        answer.set("{\"blocks\":[{\"height\":0,\"hash\":\"zz\"}]}");
        assertThrows(SourceException.class, () -> client().scan(filter(), 0, 10));
    }
}
