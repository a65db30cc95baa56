package org.blockfilter.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Request targets that java.net.URI refuses to build, sent raw: malformed {@code %} escapes in
 * the path or the query are a 400 in the API's one JSON error shape with the parameter's code
 * (never a 500, never dropped as if the parameter were absent); on the Core-compatible routes they
 * are Core's 400 text. A path Jetty cannot parse at all ({@code %ZZ}, a trailing {@code %}) is
 * a JSON {@code bad_request} on every route: Jetty keeps no path to route by.
 */
class MalformedRequestTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final RestServerExtension REST = RestServerExtension.ofChain(60).nodeAhead(2);

    @ParameterizedTest(name = "{0} -> {1} {2}")
    @CsvSource(delimiter = '|', textBlock = """
            /api/v1/filters/%u0031                                   | 400 | bad_hash_or_height
            /api/v1/filters/%                                        | 400 | bad_request
            /api/v1/filters/%ZZ                                      | 400 | bad_request
            /api/v1/blocks/%ZZ                                       | 400 | bad_request
            /rest/blockfilter/basic/%ZZ.json                         | 400 | bad_request
            /api/v1/blocks/%u0031                                    | 400 | bad_hash
            /api/v1/filters?start_height=0&stop_hash=%ZZ             | 400 | bad_hash
            /api/v1/filters?start_height=%ZZ&stop_hash=H5            | 400 | bad_start_height
            /api/v1/filter-headers?start_height=0&stop_hash=%u0031   | 400 | bad_hash
            /api/v1/checkpoints?stop_hash=%ZZ                        | 400 | bad_hash
            /api/v1/headers?start_height=0&count=%1                  | 400 | bad_count
            /api/v1/status?x=%ZZ                                     | 400 | bad_escape
            """)
    void malformedEscapeIsA400InTheJsonErrorShape(String target, int status, String code) throws IOException {
        String t = target.replace("H5", REST.chain().at(5).blockHash().toString());
        RawHttp.Response r = RawHttp.get(REST.server().baseUri(), t);
        assertEquals(status, r.status(), () -> t + " -> " + r.text());
        assertTrue(r.header("Content-Type").startsWith("application/json"), r.header("Content-Type"));
        JsonNode e = JSON.readTree(r.body()).get("error");
        assertEquals(status, e.get("status").asInt());
        assertEquals(code, e.get("code").asText(), r::text);
        assertTrue(e.get("message").asText().contains("%"), r::text);
    }

    @ParameterizedTest(name = "{0} -> 400 {1}")
    @CsvSource(delimiter = '|', textBlock = """
            /rest/blockfilter/basic/%u0031.hex         | Invalid hash: %u0031
            /rest/blockfilterheaders/basic/%u0031.hex?count=5  | Invalid hash: %u0031
            /rest/blockfilterheaders/basic/H5.hex?count=%ZZ  | Header count is invalid or out of acceptable range (1-2000): %ZZ
            /rest/blockfilterheaders/basic/%u0031.hex  | Invalid hash: %u0031
            """)
    void malformedEscapeOnCoreRoutesIsAnsweredAsCore(String target, String text) {
        String t = target.replace("H5", REST.chain().at(5).blockHash().toString());
        RawHttp.Response r = RawHttp.get(REST.server().baseUri(), t);
        assertEquals(400, r.status(), () -> t + " -> " + r.text());
        assertEquals("text/plain", r.header("Content-Type"));
        assertEquals(text + "\r\n", r.text());
    }
}
