package org.blockfilter.server.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.function.Function;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.server.rpc.Http11OnlyNode.Answer;
import org.junit.jupiter.api.Test;

/**
 * JSON-RPC against a minimal HTTP/1.1-only node: no HTTP/2 upgrade offered, and every answer that
 * is not what the call expects is an {@link RpcException} naming the call and the field, with the
 * answer's size bounded.
 */
class JsonRpcClientTest {
    private static final String HASH = "ab".repeat(32);

    private static BitcoinRpc rpc(Http11OnlyNode node) {
        return new BitcoinRpc(JsonRpcClient.create(node.endpoint(), "u", "p", Duration.ofSeconds(20)));
    }

    private static RpcException failure(Answer answer, Function<BitcoinRpc, Object> call) throws IOException {
        try (Http11OnlyNode node = new Http11OnlyNode((method, params) -> answer)) {
            return assertThrows(RpcException.class, () -> call.apply(rpc(node)));
        }
    }

    private static void assertMentions(RpcException e, String... parts) {
        for (String p : parts) {
            assertTrue(e.getMessage().contains(p), () -> "'" + p + "' not in: " + e.getMessage());
        }
    }

    @Test
    void talksToAnHttp11OnlyNodeWithoutOfferingAnUpgrade() throws IOException {
        try (Http11OnlyNode node = new Http11OnlyNode((method, params) -> Answer.result("7"))) {
            BitcoinRpc rpc = rpc(node);
            assertEquals(7, rpc.blockCount());
            assertEquals(7, rpc.blockCount()); // a second connection, too
            assertEquals(0, node.upgradesRefused());
        }
    }

    @Test
    void bestBlockHashThatIsAnObjectNamesTheCallAndField() throws IOException {
        RpcException e = failure(Answer.result("{\"hash\":\"" + HASH + "\"}"), BitcoinRpc::bestBlockHash);
        assertMentions(e, "getbestblockhash", "result must be a 64-hex-digit hash", "an object");
        assertTrue(e.isTransportError());
    }

    @Test
    void chainThatIsANumberNamesTheCallAndField() throws IOException {
        RpcException e = failure(Answer.result("{\"chain\":12345,\"blocks\":3}"), BitcoinRpc::chainName);
        assertMentions(e, "getblockchaininfo", "result.chain must be a chain name", "a number 12345");
    }

    @Test
    void blockchainInfoThatIsNotAnObjectIsRefused() throws IOException {
        RpcException e = failure(Answer.result("\"regtest\""), BitcoinRpc::chainName);
        assertMentions(e, "getblockchaininfo", "result must be an object", "a string");
    }

    @Test
    void blockCountOfTheWrongTypeOrSignIsRefused() throws IOException {
        assertMentions(
                failure(Answer.result("\"12\""), BitcoinRpc::blockCount), "getblockcount", "result must be an integer");
        assertMentions(failure(Answer.result("-1"), BitcoinRpc::blockCount), "getblockcount", "a number -1");
        assertMentions(failure(Answer.result("1.5"), BitcoinRpc::blockCount), "getblockcount", "a number 1.5");
        assertMentions(failure(Answer.result("99999999999"), BitcoinRpc::blockCount), "getblockcount", "0..2147483647");
    }

    @Test
    void blockHashRawBlockAndTxidOfTheWrongShapeAreRefused() throws IOException {
        assertMentions(
                failure(Answer.result("12"), r -> r.blockHash(3)),
                "getblockhash",
                "result must be a 64-hex-digit hash");
        assertMentions(
                failure(Answer.result("\"xyz\""), r -> r.rawBlock(Sha256Hash.wrap(HASH))),
                "getblock",
                "result must be a hex string");
        assertMentions(
                failure(Answer.result("null"), r -> r.rawBlock(Sha256Hash.wrap(HASH))),
                "getblock",
                "result must be a non-empty hex string",
                "null");
        assertMentions(
                failure(Answer.result("[\"" + HASH + "\"]"), r -> r.sendRawTransaction(new byte[] {1})),
                "sendrawtransaction",
                "an array");
    }

    @Test
    void blockHeaderMustBeEightyBytesOfHex() throws IOException {
        assertMentions(
                failure(Answer.result("\"abcd\""), r -> r.blockHeader(Sha256Hash.wrap(HASH))),
                "getblockheader",
                "result must be 80 bytes of hex");
        assertMentions(
                failure(Answer.result("{\"hash\":\"" + HASH + "\"}"), r -> r.blockHeader(Sha256Hash.wrap(HASH))),
                "getblockheader",
                "an object");
    }

    @Test
    void htmlPageIsNotJsonAndSaysWhatCameBack() throws IOException {
        RpcException e = failure(
                Answer.raw(200, "text/html", "<html><body>Welcome to nginx!</body></html>"), BitcoinRpc::blockCount);
        assertMentions(e, "getblockcount", "is not JSON", "HTTP 200", "text/html", "<html><body>Welcome");
    }

    @Test
    void truncatedJsonIsNotJson() throws IOException {
        RpcException e = failure(Answer.json("{\"result\":\"" + HASH.substring(0, 20)), BitcoinRpc::bestBlockHash);
        assertMentions(e, "getbestblockhash", "is not JSON", "end-of-input");
    }

    @Test
    void trailingGarbageAfterTheJsonIsNotJson() throws IOException {
        RpcException e = failure(Answer.json("{\"result\":5,\"error\":null,\"id\":1} <html>"), BitcoinRpc::blockCount);
        assertMentions(e, "getblockcount", "is not JSON");
    }

    @Test
    void jsonWithoutAResultMemberIsRefused() throws IOException {
        RpcException e = failure(Answer.json("[1,2,3]"), BitcoinRpc::blockCount);
        assertMentions(e, "getblockcount", "expected a JSON object with a result member", "an array [1,2,3]");
    }

    @Test
    void fiftyMegabyteAnswerIsRefusedUnread() throws IOException {
        RpcException e = failure(Answer.huge(50_000_000), r -> r.rawBlock(Sha256Hash.wrap(HASH)));
        assertMentions(e, "getblock", "larger than " + JsonRpcClient.MAX_ANSWER_BYTES + " bytes");
    }

    @Test
    void nodeErrorObjectKeepsItsCode() throws IOException {
        RpcException e = failure(
                Answer.raw(500, "application/json", "{\"result\":null,\"error\":{\"code\":-5,\"message\":\"nope\"}}"),
                BitcoinRpc::blockCount);
        assertEquals(-5, e.code());
        assertMentions(e, "getblockcount", "nope");
    }
}
