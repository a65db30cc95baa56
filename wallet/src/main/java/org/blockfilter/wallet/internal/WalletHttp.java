package org.blockfilter.wallet.internal;

import java.io.IOException;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.blockfilter.wallet.source.net.Dialer;
import org.blockfilter.wallet.source.net.HttpProxyBridge;

/**
 * How the wallet speaks HTTP, in one place for its HTTP sources: the client (connect timeout,
 * redirects, protocol version) and the request (deadline, User-Agent) for our server's REST API,
 * a static export and the legacy BIP 37 scan, and for the first two the wait for a size-limited
 * answer and the words for what went wrong.
 *
 * <p>Redirects are never followed: a source is the URL the user named, and a redirect would hand
 * the wallet to another host without a word. The version is the JDK's default (HTTP/2 where the
 * server offers it, else HTTP/1.1), written out so that it does not change under us. Stateless.
 */
public final class WalletHttp {
    /** Sent with every request, so a server's logs can tell the wallet apart. */
    public static final String USER_AGENT = "blockfilter-wallet/0.1";

    private WalletHttp() {}

    /**
     * A client that connects within {@code timeout}; {@code executor} runs its callbacks (null:
     * the JDK's own).
     */
    public static HttpClient newClient(Duration timeout, Executor executor) {
        return newClient(timeout, executor, null);
    }

    /**
     * A client whose connections go through {@code bridge} (an HTTP proxy on loopback that dials
     * each connection through a SOCKS5 proxy), or directly when it is null.
     */
    public static HttpClient newClient(Duration timeout, Executor executor, HttpProxyBridge bridge) {
        HttpClient.Builder b = HttpClient.newBuilder()
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .version(HttpClient.Version.HTTP_2);
        if (executor != null) {
            b.executor(executor);
        }
        if (bridge != null) {
            b.proxy(ProxySelector.of(bridge.address()));
        }
        return b.build();
    }

    /** The bridge for a source's HTTP connections through {@code dialer}; null for a direct dialer. */
    public static HttpProxyBridge bridgeFor(Dialer dialer, Duration timeout) {
        if (dialer.direct()) {
            return null;
        }
        try {
            return HttpProxyBridge.start(dialer, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot listen on loopback for the proxy bridge: " + e, e);
        }
    }

    /** A cached pool of daemon threads named {@code threadName} for a client's callbacks; the source shuts it down. */
    public static ExecutorService daemonExecutor(String threadName) {
        return Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    /** A request to {@code uri} with the deadline {@code timeout} and the wallet's User-Agent. */
    public static HttpRequest.Builder request(URI uri, Duration timeout) {
        return HttpRequest.newBuilder(uri).timeout(timeout).header("User-Agent", USER_AGENT);
    }

    /** Why an exchange gave no answer; the message says it in a few words, the cause is the JDK's. */
    public static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;

        Failure(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Sends and waits at most {@code timeout} for the whole answer (connecting, headers and a
     * body of at most {@code maxBytes}; error bodies at most {@code maxErrorBytes}). Any status
     * is returned: what a status means is the caller's.
     *
     * @throws Failure no complete answer in time, a body over the limit, a failed connection or
     *     an interrupt (the thread's interrupt flag is set again)
     */
    public static HttpResponse<byte[]> send(
            HttpClient http, HttpRequest req, Duration timeout, long maxBytes, int maxErrorBytes) throws Failure {
        String late = "no complete answer within " + timeout.toMillis() + " ms";
        CompletableFuture<HttpResponse<byte[]>> future;
        try {
            future = http.sendAsync(req, LimitedBodySubscriber.handler(maxBytes, maxErrorBytes));
        } catch (RuntimeException e) {
            throw new Failure(e.toString(), e);
        }
        try {
            return future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new Failure(late, e);
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new Failure("interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof LimitedBodySubscriber.TooLargeException) {
                throw new Failure(cause.getMessage(), cause);
            }
            // The request's own timeout and the wait above race; either way the answer was too slow.
            if (cause instanceof HttpTimeoutException) {
                throw new Failure(late, cause);
            }
            throw new Failure((cause instanceof IOException ? "connection failed: " : "") + cause, cause);
        } catch (RuntimeException e) { // cancelled from elsewhere
            throw new Failure(e.toString(), e);
        }
    }
}
