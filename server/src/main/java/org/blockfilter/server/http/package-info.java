/**
 * The server's HTTP layer (Javalin): our versioned REST API under {@code /api/v1}, Bitcoin
 * Core-compatible {@code /rest/blockfilter*} endpoints, the legacy BIP 37 scan, OpenAPI, Swagger
 * UI and Prometheus metrics. Reads only through
 * {@link org.blockfilter.server.read.FilterIndexReader} and {@link org.blockfilter.server.node.NodeGateway}.
 * Entry point: {@link org.blockfilter.server.http.RestServer#start}.
 */
package org.blockfilter.server.http;
