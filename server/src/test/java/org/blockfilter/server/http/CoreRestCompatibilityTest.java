package org.blockfilter.server.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Core-compatible endpoints against expectations derived from Bitcoin Core's src/rest.cpp
 * (rest_block_filter, rest_filter_header, RESTERR, ParseDataFormat): bodies, content types,
 * status codes and error texts. Literal bodies below were worked out by hand from Core's
 * serialization of the genesis row of the BIP 158 vectors (block hash in wire order, filter type
 * 0, CompactSize length, filter) and of the consecutive rows for testnet blocks 2 and 3.
 */
class CoreRestCompatibilityTest {
    @RegisterExtension
    static final RestServerExtension REST = RestServerExtension.ofChain(60).nodeAhead(3);

    private final RestTestChain chain = REST.chain();
    private final Client client = REST.client();
    private static final String GENESIS = "000000000933ea01ad0ee984209779baaec3ced90fa3f408719526f8d77f4943";
    private static final String BLOCK2 = "000000006c02c8ea6e4ff69651f7fcde348fb9d557a06e6957b65552002a7820";
    private static final String GENESIS_FILTER_BIN =
            "43497fd7f826957108f4a30fd9cec3aeba79972084e90ead01ea3309000000000004019dfca8";
    private static final String HEADER2 = "186afd11ef2b5e7e3504f2e8cbf8df28a1fd251fe53d60dff8b1467d1b386cf0";
    private static final String HEADER3 = "8d63aadf5ab7257cb6d2316a57b16f517bff1c6388f124ec4c04af1212729d2a";
    private static final String HEADERS_2_3_BIN = "f06c381b7d46b1f8df603de51f25fda128dff8cbe8f204357e5e2bef11fd6a18"
            + "2a9d721212af044cec24f188631cff7b516fb1576a31d2b67c25b75adfaa638d";

    private void expect(String path, int status, String contentType, byte[] body) {
        HttpResponse<byte[]> r = client.get(path);
        assertEquals(status, r.statusCode(), () -> path + " -> " + Client.text(r));
        assertEquals(contentType, r.headers().firstValue("Content-Type").orElseThrow(), path);
        assertArrayEquals(body, r.body(), () -> path + " -> " + Client.text(r));
    }

    private void expectText(String path, int status, String contentType, String body) {
        expect(path, status, contentType, body.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void blockFilterBinIsCoresBlockFilterSerialization() {
        expect(
                "/rest/blockfilter/basic/" + GENESIS + ".bin",
                200,
                "application/octet-stream",
                RestTestChain.HEX.parseHex(GENESIS_FILTER_BIN));
    }

    @Test
    void blockFilterHexIsTheSameBytesAsHexWithANewline() {
        expectText("/rest/blockfilter/basic/" + GENESIS + ".hex", 200, "text/plain", GENESIS_FILTER_BIN + "\n");
    }

    @Test
    void blockFilterJsonHasOnlyTheFilter() {
        expectText(
                "/rest/blockfilter/basic/" + GENESIS + ".json", 200, "application/json", "{\"filter\":\"019dfca8\"}\n");
    }

    @Test
    void blockFilterOfAStaleBlockIsStillServed() {
        HttpResponse<byte[]> r = client.get("/rest/blockfilter/basic/" + chain.stale.blockHash() + ".json");
        assertEquals(200, r.statusCode());
    }

    @Test
    void filterHeadersInAllThreeFormats() {
        expect(
                "/rest/blockfilterheaders/basic/" + BLOCK2 + ".bin?count=2",
                200,
                "application/octet-stream",
                RestTestChain.HEX.parseHex(HEADERS_2_3_BIN));
        expectText(
                "/rest/blockfilterheaders/basic/" + BLOCK2 + ".hex?count=2", 200, "text/plain", HEADERS_2_3_BIN + "\n");
        expectText(
                "/rest/blockfilterheaders/basic/" + BLOCK2 + ".json?count=2",
                200,
                "application/json",
                "[\"" + HEADER2 + "\",\"" + HEADER3 + "\"]\n");
    }

    @Test
    void deprecatedCountPathAnswersLikeTheQueryForm() {
        expectText(
                "/rest/blockfilterheaders/basic/2/" + BLOCK2 + ".json",
                200,
                "application/json",
                "[\"" + HEADER2 + "\",\"" + HEADER3 + "\"]\n");
    }

    @Test
    void filterHeadersCountDefaultsToFive() {
        HttpResponse<byte[]> r = client.get("/rest/blockfilterheaders/basic/" + BLOCK2 + ".bin");
        assertEquals(5 * 32, r.body().length);
    }

    @Test
    void filterHeadersOfAnUnknownOrStaleBlockAreEmpty() {
        // Core walks the active chain from the block: a block not on it yields no headers and 200.
        expectText("/rest/blockfilterheaders/basic/" + "11".repeat(32) + ".json", 200, "application/json", "[]\n");
        expectText("/rest/blockfilterheaders/basic/" + chain.stale.blockHash() + ".hex", 200, "text/plain", "\n");
    }

    @Test
    void filterHeadersThatRunIntoUnindexedBlocksAre404WhileIndexing() {
        // The node is 3 blocks ahead of the index, so Core's walk would reach blocks without filters.
        expectText(
                "/rest/blockfilterheaders/basic/" + chain.at(58).blockHash() + ".json?count=3",
                404,
                "text/plain",
                "Filter not found. Block filters are still in the process of being indexed.\r\n");
        expectText(
                "/rest/blockfilterheaders/basic/" + chain.at(58).blockHash() + ".json?count=2",
                200,
                "application/json",
                "[\"" + chain.at(58).header() + "\",\"" + chain.at(59).header() + "\"]\n");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            /rest/blockfilter/basic/GENESIS                      | 404 | output format not found (available: .bin, .hex, .json)
            /rest/blockfilter/basic/GENESIS.xml                  | 400 | Invalid hash: GENESIS.xml
            /rest/blockfilter/basic/GENESIS.bin?x=1              | 200 |
            /rest/blockfilter/extended/GENESIS.bin               | 400 | Unknown filtertype extended
            /rest/blockfilter/basic/abc.bin                      | 400 | Invalid hash: abc
            /rest/blockfilter/basic/GENESISff.bin                | 400 | Invalid hash: GENESISff
            /rest/blockfilter/basic/x/GENESIS.bin                | 400 | Invalid URI format. Expected /rest/blockfilter/<filtertype>/<blockhash>
            /rest/blockfilter/GENESIS.bin                        | 400 | Invalid URI format. Expected /rest/blockfilter/<filtertype>/<blockhash>
            /rest/blockfilter/basic/UNKNOWN.json                 | 404 | UNKNOWN not found
            /rest/blockfilter/basic/NOTINDEXED.json              | 404 | Filter not found. Block filters are still in the process of being indexed.
            /rest/blockfilterheaders/basic/GENESIS.json?count=0  | 400 | Header count is invalid or out of acceptable range (1-2000): 0
            /rest/blockfilterheaders/basic/GENESIS.json?count=2001 | 400 | Header count is invalid or out of acceptable range (1-2000): 2001
            /rest/blockfilterheaders/basic/GENESIS.json?count=-1 | 400 | Header count is invalid or out of acceptable range (1-2000): -1
            /rest/blockfilterheaders/basic/GENESIS.json?count=%2B5 | 400 | Header count is invalid or out of acceptable range (1-2000): +5
            /rest/blockfilterheaders/basic/GENESIS.json?count=abc | 400 | Header count is invalid or out of acceptable range (1-2000): abc
            /rest/blockfilterheaders/basic/GENESIS.json?count=99999999999999999999999 | 400 | Header count is invalid or out of acceptable range (1-2000): 99999999999999999999999
            /rest/blockfilterheaders/basic/0/GENESIS.json        | 400 | Header count is invalid or out of acceptable range (1-2000): 0
            /rest/blockfilterheaders/basic/abc.json?count=0      | 400 | Header count is invalid or out of acceptable range (1-2000): 0
            /rest/blockfilterheaders/basic/abc.json              | 400 | Invalid hash: abc
            /rest/blockfilterheaders/extended/GENESIS.json       | 400 | Unknown filtertype extended
            /rest/blockfilterheaders/basic/1/2/GENESIS.json      | 400 | Invalid URI format. Expected /rest/blockfilterheaders/<filtertype>/<blockhash>.<ext>?count=<count>
            /rest/blockfilterheaders/basic/GENESIS               | 404 | output format not found (available: .bin, .hex, .json)
            """)
    void errorsAreCoresTextsAndCodes(String path, int status, String message) {
        String p = path.replace("GENESIS", GENESIS)
                .replace("UNKNOWN", "22".repeat(32))
                .replace("NOTINDEXED", chain.unindexedButKnownToNode.toString());
        HttpResponse<byte[]> r = client.get(p);
        assertEquals(status, r.statusCode(), () -> p + " -> " + Client.text(r));
        if (message != null) {
            String m = message.replace("GENESIS", GENESIS).replace("UNKNOWN", "22".repeat(32));
            assertEquals("text/plain", r.headers().firstValue("Content-Type").orElseThrow());
            assertEquals(m + "\r\n", Client.text(r));
        }
    }
}
