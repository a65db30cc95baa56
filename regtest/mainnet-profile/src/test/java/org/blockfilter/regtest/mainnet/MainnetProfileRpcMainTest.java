package org.blockfilter.regtest.mainnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.bitcoinj.base.Sha256Hash;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The RPC node answers the server's calls, and getblock verbosity 3, as Bitcoin Core does. */
class MainnetProfileRpcMainTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TempDir
    Path dir;

    private CompletableFuture<Integer> node;
    private URI uri;
    private ProfileChain chain;

    @BeforeEach
    void start() throws Exception {
        MainnetProfile p = ChainGeneratorTest.SMALL;
        String[] args = {
            "--cache-dir", dir.toString(),
            "--utxo-target", Integer.toString(p.utxoTarget()),
            "--ramp-outputs-per-block", Integer.toString(p.rampOutputsPerBlock()),
            "--steady-blocks", Integer.toString(p.steadyBlocks()),
            "--tx-per-block", Integer.toString(p.txPerBlock()),
            "--port-file", dir.resolve("port").toString(),
            "--served-height", "5"
        };
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream());
        node = CompletableFuture.supplyAsync(() -> {
            try {
                return MainnetProfileRpcMain.run(args, quiet, quiet);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Path portFile = dir.resolve("port");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(portFile)) {
            assertFalse(node.isDone(), "the node exited early");
            assertTrue(System.nanoTime() < deadline, "no port file within 60 s");
            Thread.onSpinWait();
        }
        uri = URI.create("http://127.0.0.1:" + Files.readString(portFile).trim() + "/");
        chain = ProfileChain.open(ChainGenerator.ensure(p, dir, ChainGeneratorTest.QUIET));
    }

    @AfterEach
    void stop() throws Exception {
        call("stop");
        assertEquals(0, node.get(30, TimeUnit.SECONDS));
        chain.close();
    }

    private HttpResponse<String> post(String body, String userPassword) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri)
                .header(
                        "Authorization",
                        "Basic " + Base64.getEncoder().encodeToString(userPassword.getBytes(StandardCharsets.UTF_8)))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode call(String method, Object... params) throws IOException, InterruptedException {
        String body = JSON.writeValueAsString(
                java.util.Map.of("jsonrpc", "1.0", "id", 7, "method", method, "params", List.of(params)));
        return JSON.readTree(post(body, "mp:mp").body());
    }

    @Test
    void recentBlockTimesGiveASeparateChainWhoseTipIsStampedNow() throws Exception {
        MainnetProfile p = ChainGeneratorTest.SMALL;
        Path cache = dir.resolve("recent");
        long before = java.time.Instant.now().getEpochSecond();
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream());
        assertEquals(
                0,
                MainnetProfileRpcMain.run(
                        new String[] {
                            "--cache-dir", cache.toString(),
                            "--utxo-target", Integer.toString(p.utxoTarget()),
                            "--ramp-outputs-per-block", Integer.toString(p.rampOutputsPerBlock()),
                            "--steady-blocks", Integer.toString(p.steadyBlocks()),
                            "--tx-per-block", Integer.toString(p.txPerBlock()),
                            "--recent-block-times", "--generate-only"
                        },
                        quiet,
                        quiet));
        try (ProfileChain recent = ProfileChain.open(cache.resolve(p.key() + "-recent.chain"))) {
            long tipTime = Long.parseLong(recent.meta().getProperty("tip_time"));
            assertTrue(tipTime >= before && tipTime <= java.time.Instant.now().getEpochSecond(), "tip time " + tipTime);
            assertEquals(chain.tipHeight(), recent.tipHeight());
            assertEquals(chain.hashAt(0), recent.hashAt(0));
            assertFalse(chain.hashAt(1).equals(recent.hashAt(1)), "re-stamped headers hash differently");
        }
    }

    @Test
    void answersTheServersCallsUpToTheServedHeight() throws Exception {
        assertEquals(
                "regtest",
                call("getblockchaininfo").path("result").path("chain").asText());
        assertFalse(call("getblockchaininfo").path("result").path("pruned").asBoolean(true));
        assertEquals(5, call("getblockcount").path("result").asInt());
        assertEquals(
                chain.hashAt(5).toString(),
                call("getbestblockhash").path("result").asText());
        assertEquals(
                chain.hashAt(3).toString(),
                call("getblockhash", 3).path("result").asText());
        assertEquals(-8, call("getblockhash", 6).path("error").path("code").asInt());
        assertEquals(
                HexFormat.of().formatHex(chain.rawBlock(7)),
                call("getblock", chain.hashAt(7).toString(), 0).path("result").asText(),
                "blocks above the served tip are known by hash");
        assertEquals(
                HexFormat.of().formatHex(chain.rawBlock(7), 0, 80),
                call("getblockheader", chain.hashAt(7).toString(), false)
                        .path("result")
                        .asText());
        assertEquals(10, call("setservedheight", 10).path("result").asInt());
        assertEquals(10, call("getblockcount").path("result").asInt());
    }

    @Test
    void getblockVerbosityThreeCarriesEachInputsPrevout() throws Exception {
        int h = chain.tipHeight();
        JsonNode block = call("getblock", chain.hashAt(h).toString(), 3).path("result");
        List<Prevout> prevouts = chain.prevouts(h);
        JsonNode txs = block.path("tx");
        assertEquals(block.path("nTx").asInt(), txs.size());
        assertTrue(txs.get(0).path("vin").get(0).has("coinbase"));
        int i = 0;
        for (int t = 1; t < txs.size(); t++) {
            JsonNode tx = txs.get(t);
            assertEquals(64, tx.path("txid").asText().length());
            assertFalse(tx.path("hex").asText().isEmpty());
            for (JsonNode in : tx.path("vin")) {
                Prevout expected = prevouts.get(i++);
                JsonNode prevout = in.path("prevout");
                assertEquals(expected.height(), prevout.path("height").asInt());
                assertEquals(
                        expected.value(),
                        prevout.path("value").decimalValue().movePointRight(8).longValueExact());
                assertEquals(
                        HexFormat.of().formatHex(expected.script()),
                        prevout.path("scriptPubKey").path("hex").asText());
                assertEquals(
                        ScriptType.classify(expected.script()).coreName(),
                        prevout.path("scriptPubKey").path("type").asText());
                assertTrue(prevout.has("generated"));
            }
        }
        assertEquals(prevouts.size(), i);
        assertEquals(Sha256Hash.wrap(block.path("hash").asText()), chain.hashAt(h));
    }

    @Test
    void refusesBadCredentialsUnknownMethodsAndUnknownBlocksAsCoreDoes() throws Exception {
        assertEquals(
                401,
                post("{\"method\":\"getblockcount\",\"params\":[],\"id\":1}", "mp:wrong")
                        .statusCode());
        HttpResponse<String> unknown =
                post("{\"jsonrpc\":\"1.0\",\"method\":\"nosuch\",\"params\":[],\"id\":1}", "mp:mp");
        assertEquals(404, unknown.statusCode());
        assertEquals(
                -32601, JSON.readTree(unknown.body()).path("error").path("code").asInt());
        assertEquals(
                -5,
                call("getblock", "00".repeat(32), 0).path("error").path("code").asInt());
        assertEquals(-8, call("getblock", "xyz", 0).path("error").path("code").asInt());
        assertEquals(500, post("not json", "mp:mp").statusCode());
    }
}
