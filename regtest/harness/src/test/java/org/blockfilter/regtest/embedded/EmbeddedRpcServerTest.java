package org.blockfilter.regtest.embedded;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.crypto.ECKey;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.JsonRpcClient;
import org.blockfilter.server.rpc.RpcException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The JSON-RPC server through the server module's own {@link JsonRpcClient} and
 * {@link BitcoinRpc}, unchanged, plus raw HTTP for what that client does not send
 * (JSON-RPC 2.0, batches, bad credentials, garbage).
 */
class EmbeddedRpcServerTest {
    private static final long COIN = 100_000_000L;
    private static final HexFormat HEX = HexFormat.of();
    private static final ObjectMapper JSON = new ObjectMapper();
    private final ECKey miner = Fixtures.key("miner");
    private final ECKey alice = Fixtures.key("alice");
    private EmbeddedNode node;
    private JsonRpcClient client;
    private BitcoinRpc rpc;

    @BeforeEach
    void start() {
        node = Fixtures.node(SettableClock.at(Fixtures.T0), Fixtures.p2pkh(miner));
        node.mine(101);
        client = JsonRpcClient.create(node.rpcUri(), node.rpcUser(), node.rpcPassword(), Duration.ofSeconds(30));
        rpc = new BitcoinRpc(client);
    }

    @AfterEach
    void stop() {
        node.close();
    }

    @Test
    void bitcoinRpcReadsTheChainUnchanged() {
        assertEquals("127.0.0.1", node.rpcUri().getHost());
        assertEquals(101, rpc.blockCount());
        assertEquals(node.tipHash(), rpc.bestBlockHash());
        JsonNode info = rpc.blockchainInfo();
        assertEquals("regtest", info.get("chain").asText());
        assertEquals(101, info.get("blocks").asInt());
        assertEquals(node.tipHash().toString(), info.get("bestblockhash").asText());
        assertEquals(node.blockHash(7), rpc.blockHash(7));
        assertEquals(Optional.empty(), rpc.blockHash(102), "above the tip: Core's -8 maps to empty");
        assertArrayEquals(
                node.rawBlock(node.tipHash()).orElseThrow(),
                rpc.rawBlock(node.tipHash()).orElseThrow());
        assertEquals(
                Optional.empty(),
                rpc.rawBlock(Sha256Hash.of(new byte[] {1})),
                "unknown block: Core's -5 maps to empty");
    }

    @Test
    void errorsCarryCoresCodesAndMessages() {
        RpcException range = assertThrows(RpcException.class, () -> client.call("getblockhash", 500));
        assertEquals(-8, range.code());
        assertTrue(range.getMessage().contains("Block height out of range"));
        RpcException notFound =
                assertThrows(RpcException.class, () -> client.call("getblock", Sha256Hash.ZERO_HASH.toString()));
        assertEquals(-5, notFound.code());
        assertTrue(notFound.getMessage().contains("Block not found"));
        assertEquals(
                -8,
                assertThrows(RpcException.class, () -> client.call("getblock", "abc"))
                        .code());
        assertEquals(
                -3,
                assertThrows(RpcException.class, () -> client.call("getblockhash", "one"))
                        .code());
        assertEquals(
                -1,
                assertThrows(RpcException.class, () -> client.call("getblockcount", 1))
                        .code());
        assertEquals(
                -32601,
                assertThrows(RpcException.class, () -> client.call("getwalletinfo"))
                        .code());
        assertEquals(
                -5,
                assertThrows(RpcException.class, () -> client.call("generatetoaddress", 1, "notanaddress"))
                        .code());
        assertEquals(
                -22,
                assertThrows(RpcException.class, () -> client.call("sendrawtransaction", "zz"))
                        .code());
        assertEquals(
                -22,
                assertThrows(RpcException.class, () -> client.call("submitblock", "00"))
                        .code());
        assertEquals(
                -5,
                assertThrows(
                                RpcException.class,
                                () -> client.call("getrawtransaction", Sha256Hash.ZERO_HASH.toString()))
                        .code());
    }

    @Test
    void sendRawTransactionAcceptsAndRejectsLikeCore() {
        Transaction tx = Fixtures.pay(Fixtures.coinbase(node, 1, miner), Fixtures.p2wpkh(alice), 49 * COIN);
        assertEquals(tx.getTxId(), rpc.sendRawTransaction(tx.serialize()));
        JsonNode pool = client.call("getrawmempool");
        assertEquals(tx.getTxId().toString(), pool.get(0).asText());
        JsonNode verbose = client.call("getrawmempool", true).get(tx.getTxId().toString());
        assertEquals(1.0, verbose.get("fees").get("base").asDouble());
        assertEquals(
                HEX.formatHex(tx.serialize()),
                client.call("getrawtransaction", tx.getTxId().toString()).asText());

        Transaction conflict = Fixtures.pay(Fixtures.coinbase(node, 1, miner), Fixtures.p2pkh(alice), 48 * COIN);
        RpcException e = assertThrows(RpcException.class, () -> rpc.sendRawTransaction(conflict.serialize()));
        assertEquals(-26, e.code());
        assertTrue(e.getMessage().contains("txn-mempool-conflict"));
        Transaction tooMuch = Fixtures.pay(Fixtures.coinbase(node, 2, miner), Fixtures.p2pkh(alice), 51 * COIN);
        assertEquals(
                -26,
                assertThrows(RpcException.class, () -> rpc.sendRawTransaction(tooMuch.serialize()))
                        .code());

        JsonNode mined =
                client.call("generatetoaddress", 1, Fixtures.p2wpkh(alice).toString());
        assertEquals(1, mined.size());
        JsonNode confirmed = client.call("getrawtransaction", tx.getTxId().toString(), true);
        assertEquals(mined.get(0).asText(), confirmed.get("blockhash").asText());
        assertEquals(1, confirmed.get("confirmations").asInt());
        assertEquals(0, client.call("getrawmempool").size());
        assertEquals(
                -27,
                assertThrows(RpcException.class, () -> rpc.sendRawTransaction(tx.serialize()))
                        .code());
    }

    @Test
    void blockAndHeaderViewsMatchTheBlock() {
        Sha256Hash tip = node.tipHash();
        JsonNode block = client.call("getblock", tip.toString(), 1);
        assertEquals(101, block.get("height").asInt());
        assertEquals(1, block.get("confirmations").asInt());
        assertEquals("207fffff", block.get("bits").asText());
        assertEquals(
                node.blockHash(100).orElseThrow().toString(),
                block.get("previousblockhash").asText());
        assertFalse(block.has("nextblockhash"));
        assertEquals(
                node.block(tip).orElseThrow().getTransactions().get(0).getTxId().toString(),
                block.get("tx").get(0).asText());
        assertEquals(node.rawBlock(tip).orElseThrow().length, block.get("size").asInt());
        String header = client.call("getblockheader", tip.toString(), false).asText();
        assertEquals(HEX.formatHex(node.rawBlock(tip).orElseThrow(), 0, 80), header);
        assertEquals(
                tip.toString(),
                client.call("getblockheader", tip.toString()).get("hash").asText());
        assertEquals(
                HEX.formatHex(node.rawBlock(tip).orElseThrow()),
                client.call("getblock", tip.toString(), false).asText());
        assertTrue(client.call("getblock", tip.toString(), 2).get("tx").get(0).has("vin"));
    }

    @Test
    void submitBlockAnswersWithCoresResultStrings() {
        try (EmbeddedNode other = Fixtures.node(SettableClock.at(Fixtures.T0.plusSeconds(5)), Fixtures.p2wpkh(alice))) {
            for (int h = 1; h <= 101; h++) {
                other.submitBlock(node.rawBlock(node.blockHash(h).orElseThrow()).orElseThrow());
            }
            Sha256Hash next = other.mine(1).get(0);
            String raw = HEX.formatHex(other.rawBlock(next).orElseThrow());
            assertTrue(client.call("submitblock", raw).isNull(), "accepted");
            assertEquals(next, rpc.bestBlockHash());
            assertEquals("duplicate", client.call("submitblock", raw).asText());
            // A block on a branch with less work is stored but not connected.
            Sha256Hash stale = other.reorg(1, 2).get(0);
            node.mine(3);
            assertEquals(
                    "inconclusive",
                    client.call(
                                    "submitblock",
                                    HEX.formatHex(other.rawBlock(stale).orElseThrow()))
                            .asText());
        }
    }

    @Test
    void invalidateAndReconsiderBlockReorganiseOverRpc() {
        Sha256Hash tip = node.tipHash();
        assertTrue(client.call("invalidateblock", tip.toString()).isNull());
        assertEquals(100, rpc.blockCount());
        JsonNode tips = client.call("getchaintips");
        assertEquals(2, tips.size());
        java.util.Set<String> statuses = new java.util.HashSet<>();
        tips.forEach(t -> statuses.add(t.get("status").asText()));
        assertEquals(java.util.Set.of("active", "invalid"), statuses);
        assertTrue(client.call("reconsiderblock", tip.toString()).isNull());
        assertEquals(tip, rpc.bestBlockHash());
        assertEquals(
                -5,
                assertThrows(RpcException.class, () -> client.call("invalidateblock", Sha256Hash.ZERO_HASH.toString()))
                        .code());
    }

    @Test
    void speaksJsonRpcTwoAndBatches() throws Exception {
        HttpResponse<String> single = post(
                node.rpcUser(),
                node.rpcPassword(),
                "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"getblockhash\",\"params\":[999]}");
        assertEquals(200, single.statusCode());
        JsonNode body = JSON.readTree(single.body());
        assertEquals("2.0", body.get("jsonrpc").asText());
        assertEquals("a", body.get("id").asText());
        assertEquals(-8, body.get("error").get("code").asInt());
        assertFalse(body.has("result"));

        HttpResponse<String> batch = post(
                node.rpcUser(),
                node.rpcPassword(),
                "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"getblockcount\"},{\"jsonrpc\":\"1.0\",\"id\":2,\"method\":\"getbestblockhash\",\"params\":[]}]");
        JsonNode replies = JSON.readTree(batch.body());
        assertEquals(101, replies.get(0).get("result").asInt());
        assertEquals(node.tipHash().toString(), replies.get(1).get("result").asText());

        HttpResponse<String> notification =
                post(node.rpcUser(), node.rpcPassword(), "{\"jsonrpc\":\"2.0\",\"method\":\"getblockcount\"}");
        assertEquals(204, notification.statusCode());
    }

    @Test
    void badCredentialsAndGarbageGetClearAnswersNotCrashes() throws Exception {
        assertEquals(
                401,
                post(node.rpcUser(), "wrong", "{\"id\":1,\"method\":\"getblockcount\"}")
                        .statusCode());
        RpcException e = assertThrows(
                RpcException.class,
                () -> JsonRpcClient.create(node.rpcUri(), "x", "y", Duration.ofSeconds(5))
                        .call("getblockcount"));
        assertTrue(e.isTransportError() && e.getMessage().contains("401"), e.getMessage());
        HttpResponse<String> garbage = post(node.rpcUser(), node.rpcPassword(), "{not json");
        assertEquals(500, garbage.statusCode());
        assertEquals(
                -32700, JSON.readTree(garbage.body()).get("error").get("code").asInt());
        HttpResponse<String> noMethod = post(node.rpcUser(), node.rpcPassword(), "{\"id\":1}");
        assertEquals(400, noMethod.statusCode());
        assertEquals(
                -32600, JSON.readTree(noMethod.body()).get("error").get("code").asInt());
        assertEquals(101, rpc.blockCount(), "still serving");
    }

    @Test
    void stopShutsTheNodeDown() throws Exception {
        assertTrue(client.call("stop").asText().contains("stopping"));
        node.awaitClose();
        RpcException e = assertThrows(RpcException.class, () -> rpc.blockCount());
        assertTrue(e.isTransportError());
    }

    private HttpResponse<String> post(String user, String password, String body)
            throws IOException, InterruptedException {
        String auth = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(URI.create(node.rpcUri() + "/"))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Basic " + auth)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }
}
