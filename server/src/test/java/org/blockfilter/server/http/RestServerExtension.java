package org.blockfilter.server.http;

import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts the REST layer once per test class over an in-memory index of a {@link RestTestChain}
 * and a {@link FakeNode}, and stops it after the class. Register it as a static field:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final RestServerExtension REST = RestServerExtension.ofChain(60).nodeAhead(2);
 * }</pre>
 *
 * then read {@link #chain()}, {@link #server()} and {@link #client()} from the tests (or from
 * instance field initialisers: JUnit creates the test instance after {@code beforeAll}). The
 * settings are fixed before the class starts; not for concurrent test classes sharing one field.
 */
final class RestServerExtension implements BeforeAllCallback, AfterAllCallback {
    private final int length;
    private final int nodeAhead;
    private final boolean nodeReachable;
    private final UnaryOperator<RestConfig> config;
    private RestTestChain chain;
    private RestServer server;
    private Client client;

    private RestServerExtension(int length, int nodeAhead, boolean nodeReachable, UnaryOperator<RestConfig> config) {
        this.length = length;
        this.nodeAhead = nodeAhead;
        this.nodeReachable = nodeReachable;
        this.config = config;
    }

    /** A chain of {@code length} blocks, the node at the index tip, default settings. */
    static RestServerExtension ofChain(int length) {
        return new RestServerExtension(length, 0, true, UnaryOperator.identity());
    }

    /** The same with the fake node {@code blocks} past the index tip. */
    RestServerExtension nodeAhead(int blocks) {
        return new RestServerExtension(length, blocks, nodeReachable, config);
    }

    /** The same with a fake node that answers every call with "connection refused". */
    RestServerExtension nodeUnreachable() {
        return new RestServerExtension(length, nodeAhead, false, config);
    }

    /** The same with {@code change} applied to {@link RestConfig#defaults()}. */
    RestServerExtension withConfig(UnaryOperator<RestConfig> change) {
        return new RestServerExtension(length, nodeAhead, nodeReachable, change);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        chain = RestTestChain.build(length);
        server = RestServer.start(
                config.apply(RestConfig.defaults()),
                new InMemoryIndex(chain),
                new FakeNode(chain, nodeAhead, nodeReachable));
        client = new Client(server.baseUri());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    RestTestChain chain() {
        return started(chain);
    }

    RestServer server() {
        return started(server);
    }

    Client client() {
        return started(client);
    }

    private static <T> T started(T value) {
        if (value == null) {
            throw new IllegalStateException("the REST server is not running: register the extension as a static field");
        }
        return value;
    }
}
