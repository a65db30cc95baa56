package org.blockfilter.server.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The JSON-RPC client's threads: calls start none of their own, the HTTP client's threads end at
 * close, and the whole answer stays bounded by the timeout. The node here keeps its connections
 * open (as Core and btcd do) and starts all its threads before the calls that are counted.
 *
 * <p>Before the client called {@code HttpClient.send}, every call started a thread: JDK 17's
 * {@code sendAsync} hands its answer to CompletableFuture's default pool, which, on a machine with
 * fewer than three cores (this one, CI's), is a new thread per task. With more cores that pool is
 * the common fork-join pool, and the count stays low either way.
 */
class JsonRpcClientThreadsTest {
    private static final String ANSWER = "{\"result\":7,\"error\":null,\"id\":1}";
    private static final int CALLS = 300;

    @Test
    void hundredsOfCallsStartNoThreadPerCall() throws Exception {
        try (KeepAliveNode node = new KeepAliveNode(false);
                JsonRpcClient client = JsonRpcClient.create(node.endpoint(), "u", "p", Duration.ofSeconds(20))) {
            for (int i = 0; i < 10; i++) {
                assertEquals(7, client.call("getblockcount").asInt()); // the client's threads, the timer
            }
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long before = threads.getTotalStartedThreadCount();
            for (int i = 0; i < CALLS; i++) {
                assertEquals(7, client.call("getblockcount").asInt());
            }
            long started = threads.getTotalStartedThreadCount() - before;
            // The client's own threads are at most HTTP_THREADS; the rest is room for other tests' leftovers.
            assertTrue(started <= JsonRpcClient.HTTP_THREADS + 8, started + " threads started for " + CALLS + " calls");
        }
    }

    @Test
    void closeEndsTheHttpClientsThreads() throws Exception {
        try (KeepAliveNode node = new KeepAliveNode(false)) {
            JsonRpcClient client = JsonRpcClient.create(node.endpoint(), "u", "p", Duration.ofSeconds(20));
            for (int i = 0; i < 20; i++) {
                client.call("getblockcount");
            }
            String prefix = client.threadNamePrefix();
            assertTrue(liveThreads(prefix) > 0, "the client ran its tasks on its own threads");
            client.close();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (liveThreads(prefix) > 0 && System.nanoTime() < deadline) {
                Thread.sleep(20); // polling for the threads to end, not ordering anything
            }
            assertEquals(0, liveThreads(prefix), "threads named " + prefix + "* after close");
            RpcException e = assertThrows(RpcException.class, () -> client.call("getblockcount"));
            assertTrue(e.isTransportError(), e.getMessage());
        }
    }

    @Test
    void anAnswerWhoseBodyStallsEndsAtTheTimeout() throws Exception {
        try (KeepAliveNode node = new KeepAliveNode(true);
                JsonRpcClient client = JsonRpcClient.create(node.endpoint(), "u", "p", Duration.ofSeconds(1))) {
            RpcException e = assertThrows(RpcException.class, () -> client.call("getblock", "00"));
            assertTrue(
                    e.getMessage().contains("no complete answer from " + node.endpoint() + " within 1000 ms"),
                    e.getMessage());
            assertTrue(e.isTransportError());
        }
    }

    private static long liveThreads(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith(prefix) && t.isAlive())
                .count();
    }

    /**
     * Answers every request with {@link #ANSWER} on a kept-alive connection; or, {@code stalling},
     * sends the headers and a tenth of the body and then nothing more. Its threads start in the
     * constructor.
     */
    private static final class KeepAliveNode implements AutoCloseable {
        private final ServerSocket socket;
        private final ThreadPoolExecutor connections =
                new ThreadPoolExecutor(4, 4, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, "keep-alive-node-conn");
                    t.setDaemon(true);
                    return t;
                });
        private final Set<Socket> open = ConcurrentHashMap.newKeySet();
        private final Thread acceptor;
        private final boolean stalling;

        KeepAliveNode(boolean stalling) throws IOException {
            this.stalling = stalling;
            this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            connections.prestartAllCoreThreads();
            this.acceptor = new Thread(this::acceptLoop, "keep-alive-node");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        URI endpoint() {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort());
        }

        private void acceptLoop() {
            while (true) {
                try {
                    Socket s = socket.accept();
                    open.add(s);
                    connections.execute(() -> serve(s));
                } catch (IOException e) {
                    return; // closed
                }
            }
        }

        private void serve(Socket s) {
            try (s) {
                s.setTcpNoDelay(true);
                InputStream in = new BufferedInputStream(s.getInputStream());
                OutputStream out = s.getOutputStream();
                String head;
                while ((head = readHead(in)) != null) {
                    in.readNBytes(contentLength(head));
                    byte[] body = ANSWER.getBytes(StandardCharsets.UTF_8);
                    out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                                    + "\r\n\r\n")
                            .getBytes(StandardCharsets.ISO_8859_1));
                    out.write(body, 0, stalling ? body.length / 10 : body.length);
                    out.flush();
                    if (stalling) {
                        while (in.read() >= 0) {
                            // the rest never comes; wait for the client to hang up
                        }
                        return;
                    }
                }
            } catch (IOException e) {
                // the client hung up, or the node is closing
            } finally {
                open.remove(s);
            }
        }

        private static int contentLength(String head) {
            for (String line : head.split("\r\n")) {
                String lower = line.toLowerCase(Locale.ROOT);
                if (lower.startsWith("content-length:")) {
                    return Integer.parseInt(
                            lower.substring("content-length:".length()).trim());
                }
            }
            return 0;
        }

        private static String readHead(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            int b;
            int matched = 0; // of CR LF CR LF
            while ((b = in.read()) >= 0) {
                head.write(b);
                matched = b == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : (b == '\r' ? 1 : 0);
                if (matched == 4) {
                    return head.toString(StandardCharsets.ISO_8859_1);
                }
            }
            return null;
        }

        @Override
        public void close() throws IOException {
            socket.close();
            for (Socket s : open) {
                s.close();
            }
            connections.shutdownNow();
        }
    }
}
