package org.blockfilter.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.script.ScriptBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The table of bad inputs in docs/api.md: each answers with its status and the one JSON error
 * shape, never a 500. Placeholders: H(n) = best-chain block hash at height n, STALE = a reorged-out
 * block, AHEAD = a block the node has but the index has not reached, UNKNOWN = a hash nobody knows.
 */
class BadInputTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final RestServerExtension REST =
            RestServerExtension.ofChain(2100).nodeAhead(5).withConfig(c -> c.withBip37WorkBudget(100_000));

    private final RestTestChain chain = REST.chain();
    private final Client client = REST.client();

    private String expand(String s) {
        StringBuilder out = new StringBuilder();
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("H\\((\\d+)\\)").matcher(s);
        while (m.find()) {
            m.appendReplacement(
                    out, chain.at(Integer.parseInt(m.group(1))).blockHash().toString());
        }
        m.appendTail(out);
        return out.toString()
                .replace("STALE", chain.stale.blockHash().toString())
                .replace("AHEAD", chain.unindexedButKnownToNode.toString())
                .replace("UNKNOWN", "33".repeat(32))
                .replace("BIGFILTER", "fd a98c".replace(" ", "") + "00".repeat(36_001) + "0a00000000000000" + "01")
                .replace("MANYFUNCS", "0100" + "33000000" + "00000000" + "01")
                .replace("TRAILING", "0100" + "0a000000" + "00000000" + "01" + "ff")
                .replace("TRUNCATED", "0500" + "0a")
                .replace("NONCANONICAL", "fd0100" + "00" + "0a000000" + "00000000" + "01")
                .replace("OKFILTER", "0100" + "0a000000" + "00000000" + "01")
                .replace("WIDEFILTER", "fd e803".replace(" ", "") + "00".repeat(1000) + "0a000000" + "00000000" + "01");
    }

    @ParameterizedTest(name = "{0} {1} -> {4} {5}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            GET  | /api/v1/filters/xyz                                  |   |   | 400 | bad_hash_or_height
            GET  | /api/v1/filters/0123456789abcdef                     |   |   | 400 | bad_hash_or_height
            GET  | /api/v1/filters/zz00000000000000000000000000000000000000000000000000000000000000 | | | 400 | bad_hash
            GET  | /api/v1/filters/-1                                   |   |   | 400 | bad_height
            GET  | /api/v1/filters/99999999999                          |   |   | 400 | bad_height
            GET  | /api/v1/filters/99999999999999999999999999           |   |   | 400 | bad_height
            GET  | /api/v1/filters/2200                                 |   |   | 404 | unknown_height
            GET  | /api/v1/filters/2102                                 |   |   | 503 | index_behind
            GET  | /api/v1/filters/UNKNOWN                              |   |   | 404 | unknown_block
            GET  | /api/v1/filters/AHEAD                                |   |   | 503 | index_behind
            GET  | /api/v1/filters?stop_hash=H(5)                       |   |   | 400 | missing_parameter
            GET  | /api/v1/filters?start_height=0                       |   |   | 400 | missing_parameter
            GET  | /api/v1/filters?start_height=-5&stop_hash=H(5)       |   |   | 400 | bad_start_height
            GET  | /api/v1/filters?start_height=abc&stop_hash=H(5)      |   |   | 400 | bad_start_height
            GET  | /api/v1/filters?start_height=99999999999&stop_hash=H(5) | |  | 400 | bad_start_height
            GET  | /api/v1/filters?start_height=0&stop_hash=zz          |   |   | 400 | bad_hash
            GET  | /api/v1/filters?start_height=0&stop_hash=H(5)00      |   |   | 400 | bad_hash
            GET  | /api/v1/filters?start_height=20&stop_hash=H(10)      |   |   | 400 | stop_before_start
            GET  | /api/v1/filters?start_height=0&stop_hash=H(1000)     |   |   | 400 | range_too_large
            GET  | /api/v1/filters?start_height=0&stop_hash=UNKNOWN     |   |   | 404 | unknown_block
            GET  | /api/v1/filters?start_height=0&stop_hash=STALE       |   |   | 404 | not_on_best_chain
            GET  | /api/v1/filters?start_height=0&stop_hash=AHEAD       |   |   | 503 | index_behind
            GET  | /api/v1/filter-headers?start_height=0&stop_hash=H(2000) | |  | 400 | range_too_large
            GET  | /api/v1/filter-headers?start_height=30&stop_hash=H(3) |  |   | 400 | stop_before_start
            GET  | /api/v1/checkpoints?stop_hash=nothex                 |   |   | 400 | bad_hash
            GET  | /api/v1/checkpoints?stop_hash=UNKNOWN                |   |   | 404 | unknown_block
            GET  | /api/v1/headers?start_height=0&count=0               |   |   | 400 | bad_count
            GET  | /api/v1/headers?start_height=0&count=2001            |   |   | 400 | bad_count
            GET  | /api/v1/headers?start_height=0&count=-3              |   |   | 400 | bad_count
            GET  | /api/v1/headers?start_height=0                       |   |   | 400 | missing_parameter
            GET  | /api/v1/headers?start_height=2102&count=1            |   |   | 503 | index_behind
            GET  | /api/v1/headers?start_height=5000&count=1            |   |   | 404 | unknown_height
            GET  | /api/v1/blocks/12345                                 |   |   | 400 | bad_hash
            GET  | /api/v1/blocks/UNKNOWN                               |   |   | 404 | unknown_block
            POST | /api/v1/transactions | `{"hex":"zz"}`  | application/json         | 400 | bad_hex
            POST | /api/v1/transactions | `{"hex":"abc"}` | application/json         | 400 | bad_hex
            POST | /api/v1/transactions | `{"hex":5}`     | application/json         | 400 | bad_json
            POST | /api/v1/transactions | `not json`      | application/json         | 400 | bad_json
            POST | /api/v1/transactions | `[1,2]`         | application/json         | 400 | bad_json
            POST | /api/v1/transactions | `{"hex":""}`    | application/json         | 400 | bad_transaction
            POST | /api/v1/transactions | `{"hex":"0102"}` | application/json        | 400 | bad_transaction
            POST | /api/v1/bip37/scan   | `{`             | application/json         | 400 | bad_json
            POST | /api/v1/bip37/scan   | `{"startHeight":0,"stopHeight":1}` | application/json | 400 | bad_json
            POST | /api/v1/bip37/scan   | `{"filter":"OKFILTER","startHeight":"0","stopHeight":1}` | application/json | 400 | bad_json
            POST | /api/v1/bip37/scan   | `{"filter":"OKFILTER","startHeight":-1,"stopHeight":1}` | application/json | 400 | bad_startHeight
            POST | /api/v1/bip37/scan   | `{"filter":"OKFILTER","startHeight":0,"stopHeight":100000000000000000000}` | application/json | 400 | bad_stopHeight
            POST | /api/v1/bip37/scan   | `{"filter":"OKFILTER","startHeight":9,"stopHeight":2}` | application/json | 400 | stop_before_start
            POST | /api/v1/bip37/scan   | `{"filter":"OKFILTER","startHeight":0,"stopHeight":1000}` | application/json | 400 | range_too_large
            POST | /api/v1/bip37/scan   | `{"filter":"WIDEFILTER","startHeight":0,"stopHeight":200}` | application/json | 400 | work_budget_exceeded
            POST | /api/v1/bip37/scan   | `{"filter":"OKFILTER","startHeight":2090,"stopHeight":2102}` | application/json | 503 | index_behind
            POST | /api/v1/bip37/scan   | `{"filter":"OKFILTER","startHeight":2090,"stopHeight":2200}` | application/json | 404 | unknown_height
            POST | /api/v1/bip37/scan   | `{"filter":"0g","startHeight":0,"stopHeight":1}` | application/json | 400 | bad_hex
            POST | /api/v1/bip37/scan   | `{"filter":"","startHeight":0,"stopHeight":1}` | application/json | 400 | bad_filter
            POST | /api/v1/bip37/scan   | `{"filter":"BIGFILTER","startHeight":0,"stopHeight":1}` | application/json | 400 | filter_too_large
            POST | /api/v1/bip37/scan   | `{"filter":"MANYFUNCS","startHeight":0,"stopHeight":1}` | application/json | 400 | too_many_hash_functions
            POST | /api/v1/bip37/scan   | `{"filter":"TRAILING","startHeight":0,"stopHeight":1}` | application/json | 400 | bad_filter
            POST | /api/v1/bip37/scan   | `{"filter":"TRUNCATED","startHeight":0,"stopHeight":1}` | application/json | 400 | bad_filter
            POST | /api/v1/bip37/scan   | `{"filter":"NONCANONICAL","startHeight":0,"stopHeight":1}` | application/json | 400 | bad_filter
            GET  | /api/v1/fee-estimates?target=0                       |   |   | 400 | bad_target
            GET  | /api/v1/fee-estimates?target=1009                    |   |   | 400 | bad_target
            GET  | /api/v1/fee-estimates?target=-6                      |   |   | 400 | bad_target
            GET  | /api/v1/fee-estimates?target=six                     |   |   | 400 | bad_target
            GET  | /api/v1/fee-estimates?target=99999999999             |   |   | 400 | bad_target
            GET  | /api/v1/fee-estimates?target=                        |   |   | 400 | bad_target
            POST | /api/v1/fee-estimates | `{"target":6}` | application/json        | 405 | method_not_allowed
            DELETE | /api/v1/status                                     |   |   | 405 | method_not_allowed
            POST | /api/v1/filters/1    | `{}`            | application/json         | 405 | method_not_allowed
            GET  | /api/v1/transactions                                 |   |   | 405 | method_not_allowed
            GET  | /api/v1/bip37/scan                                   |   |   | 405 | method_not_allowed
            GET  | /api/v1/nothing-here                                 |   |   | 404 | no_such_route
            """)
    void badInputGetsItsStatusAndTheJsonErrorShape(
            String method, String path, String body, String contentType, int status, String code) throws IOException {
        String p = expand(path);
        HttpRequest.Builder b = HttpRequest.newBuilder(REST.server().baseUri().resolve(p));
        if (body != null) {
            b.method(method, HttpRequest.BodyPublishers.ofString(expand(body), StandardCharsets.UTF_8));
            b.header("Content-Type", contentType);
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<byte[]> r = client.send(b);
        assertEquals(status, r.statusCode(), () -> method + " " + p + " -> " + Client.text(r));
        assertTrue(r.headers().firstValue("Content-Type").orElseThrow().startsWith("application/json"));
        JsonNode e = JSON.readTree(r.body()).get("error");
        assertEquals(status, e.get("status").asInt());
        assertEquals(code, e.get("code").asText(), () -> Client.text(r));
        assertFalse(e.get("message").asText().isBlank());
        if (status == 503) {
            assertEquals("5", r.headers().firstValue("Retry-After").orElseThrow());
        }
    }

    @Test
    void binaryTransactionWithTrailingBytesIsRejectedBeforeTheNode() throws IOException {
        byte[] tx = RestTestChain.HEX.parseHex(
                chain.bloomVectors.get("bloom_match").get("tx_hex").asText());
        HttpResponse<byte[]> r =
                client.post("/api/v1/transactions", Arrays.copyOf(tx, tx.length + 1), "application/octet-stream");
        assertEquals(400, r.statusCode());
        assertEquals(
                "bad_transaction",
                JSON.readTree(r.body()).get("error").get("code").asText());
        HttpResponse<byte[]> empty = client.post("/api/v1/transactions", new byte[0], "application/octet-stream");
        assertEquals(400, empty.statusCode());
    }

    @Test
    void bodyOverTheRequestLimitIs413() throws IOException {
        HttpResponse<byte[]> r = client.post("/api/v1/transactions", new byte[2 << 20], "application/octet-stream");
        assertEquals(413, r.statusCode(), () -> Client.text(r));
        assertEquals(
                "body_too_large",
                JSON.readTree(r.body()).get("error").get("code").asText());
    }

    @Test
    void transactionTheNodeRejectsIs400WithTheNodesReason() throws IOException {
        Transaction tx = new Transaction();
        tx.addInput(Sha256Hash.wrap("44".repeat(32)), 0, new ScriptBuilder().build());
        tx.addOutput(Coin.ZERO, ScriptBuilder.createOpReturnScript(new byte[] {1, 2, 3, 4}));
        HttpResponse<byte[]> r = client.post("/api/v1/transactions", tx.serialize(), "application/octet-stream");
        assertEquals(400, r.statusCode());
        JsonNode e = JSON.readTree(r.body()).get("error");
        assertEquals("tx_rejected", e.get("code").asText());
        assertTrue(e.get("message").asText().contains("dust"));
    }
}
