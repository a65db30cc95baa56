package org.blockfilter.server.http.internal;

import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Properties;

/** Serves the OpenAPI document, the Swagger UI page and the Prometheus scrape. */
public final class DocsController {
    public static final String OPENAPI_RESOURCE = "/org/blockfilter/server/http/openapi.json";
    private static final String SWAGGER_POM = "/META-INF/maven/org.webjars/swagger-ui/pom.properties";

    private final byte[] openApi;
    private final byte[] swaggerPage;
    private final RestMetrics metrics;

    public DocsController(RestMetrics metrics) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.openApi = resource(OPENAPI_RESOURCE);
        String version = swaggerUiVersion();
        String base = "/webjars/swagger-ui/" + version;
        this.swaggerPage = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                        + "<title>blockfilter API</title>"
                        + "<link rel=\"stylesheet\" href=\"" + base + "/swagger-ui.css\"></head>"
                        + "<body><div id=\"swagger-ui\"></div>"
                        + "<script src=\"" + base + "/swagger-ui-bundle.js\"></script>"
                        + "<script>window.ui = SwaggerUIBundle({url: '/api/v1/openapi.json', dom_id: '#swagger-ui'});</script>"
                        + "</body></html>\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    public void openApi(Context ctx) {
        Http.send(ctx, 200, Http.JSON, openApi, "public, max-age=300");
    }

    public void swagger(Context ctx) {
        Http.send(ctx, 200, "text/html; charset=utf-8", swaggerPage, "public, max-age=300");
    }

    public void metrics(Context ctx) {
        Http.send(
                ctx,
                200,
                "text/plain; version=0.0.4; charset=utf-8",
                metrics.scrape().getBytes(StandardCharsets.UTF_8),
                CachePolicy.NO_STORE);
    }

    static byte[] resource(String name) {
        try (InputStream in = DocsController.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String swaggerUiVersion() {
        Properties p = new Properties();
        try (InputStream in = DocsController.class.getResourceAsStream(SWAGGER_POM)) {
            if (in == null) {
                throw new IllegalStateException("swagger-ui webjar is not on the class path");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p.getProperty("version");
    }
}
