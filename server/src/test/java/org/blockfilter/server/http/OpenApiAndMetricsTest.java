package org.blockfilter.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The OpenAPI document matches the registered routes both ways; Swagger UI and /metrics are served. */
class OpenApiAndMetricsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final RestServerExtension REST = RestServerExtension.ofChain(60).nodeAhead(2);

    private final Client client = REST.client();

    /** Javalin's {param} and OpenAPI's {param} are the same; a trailing <wildcard> or * covers every documented path below it. */
    private static boolean covers(String route, String docPath) {
        String r = route.replaceAll("\\{[^}]+}", "{}");
        String d = docPath.replaceAll("\\{[^}]+}", "{}");
        int wildcard = r.contains("<") ? r.indexOf('<') : r.indexOf('*');
        if (wildcard >= 0) {
            return d.startsWith(r.substring(0, wildcard));
        }
        return r.equals(d);
    }

    private Set<String> documented() throws IOException {
        JsonNode doc = JSON.readTree(client.get("/api/v1/openapi.json").body());
        assertTrue(doc.get("openapi").asText().startsWith("3."));
        Set<String> ops = new TreeSet<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = doc.get("paths").fields(); paths.hasNext(); ) {
            Map.Entry<String, JsonNode> p = paths.next();
            p.getValue().fieldNames().forEachRemaining(m -> ops.add(m.toUpperCase() + " " + p.getKey()));
        }
        return ops;
    }

    @Test
    void everyRouteIsDocumentedAndEveryDocumentedOperationIsARoute() throws IOException {
        Set<String> docs = documented();
        for (String route : REST.server().routeList()) {
            String method = route.substring(0, route.indexOf(' '));
            String path = route.substring(route.indexOf(' ') + 1);
            assertTrue(
                    docs.stream()
                            .anyMatch(
                                    d -> d.startsWith(method + " ") && covers(path, d.substring(method.length() + 1))),
                    "route not in openapi.json: " + route);
        }
        for (String op : docs) {
            String method = op.substring(0, op.indexOf(' '));
            String path = op.substring(op.indexOf(' ') + 1);
            assertTrue(
                    REST.server().routeList().stream()
                            .anyMatch(
                                    r -> r.startsWith(method + " ") && covers(r.substring(method.length() + 1), path)),
                    "documented operation has no route: " + op);
        }
        assertEquals(
                16, REST.server().routeList().size(), REST.server().routeList().toString());
    }

    @Test
    void swaggerUiPageLoadsItsAssetsFromTheWebjar() {
        HttpResponse<byte[]> page = client.get("/swagger");
        assertEquals(200, page.statusCode());
        String html = Client.text(page);
        assertTrue(html.contains("/api/v1/openapi.json"));
        Matcher m = Pattern.compile("src=\"(/webjars/swagger-ui/[^\"]+)\"").matcher(html);
        assertTrue(m.find(), html);
        HttpResponse<byte[]> js = client.get(m.group(1));
        assertEquals(200, js.statusCode(), m.group(1));
        assertTrue(js.body().length > 100_000);
    }

    @Test
    void metricsExposeIndexNodeAndPerRouteRequestCounts() {
        client.get("/api/v1/filters/3");
        client.get("/api/v1/filters/zz");
        String text = Client.text(client.get("/metrics"));
        assertTrue(text.contains("blockfilter_index_height 59.0"), text);
        assertTrue(text.contains("blockfilter_node_height 61.0"), text);
        assertTrue(text.contains("blockfilter_index_lag_blocks 2.0"), text);
        assertTrue(text.contains("blockfilter_index_blocks 60.0"), text);
        assertTrue(
                text.contains(
                        "blockfilter_http_requests_seconds_count{method=\"GET\",route=\"/api/v1/filters/{hashOrHeight}\",status=\"200\"}"),
                text);
        assertTrue(text.contains("status=\"400\""), text);
        assertTrue(text.contains("blockfilter_http_response_bytes_total"), text);
        assertTrue(text.contains("blockfilter_http_cpu_seconds_total"), text);
    }
}
