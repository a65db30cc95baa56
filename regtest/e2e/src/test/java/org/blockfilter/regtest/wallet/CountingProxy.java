package org.blockfilter.regtest.wallet;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP relay on 127.0.0.1 (free port) to one target that counts the bytes each way, so BIP 157
 * and BIP 37 clients can be measured on the wire the same way whatever their implementation.
 */
public final class CountingProxy implements AutoCloseable {
    private final ServerSocket server;
    private final InetSocketAddress target;
    private final ExecutorService pumps = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "counting-proxy");
        t.setDaemon(true);
        return t;
    });
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final AtomicLong down = new AtomicLong();
    private final AtomicLong up = new AtomicLong();

    public CountingProxy(InetSocketAddress target) throws IOException {
        this.target = target;
        this.server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        pumps.submit(this::accept);
    }

    public InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", server.getLocalPort());
    }

    /** Bytes from the target to clients. */
    public long bytesDown() {
        return down.get();
    }

    /** Bytes from clients to the target. */
    public long bytesUp() {
        return up.get();
    }

    public void reset() {
        down.set(0);
        up.set(0);
    }

    private Void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket(target.getAddress(), target.getPort());
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(upstream);
                pumps.submit(() -> pump(client, upstream, up));
                pumps.submit(() -> pump(upstream, client, down));
            } catch (IOException e) {
                // Closed, or the target refused: the client sees its connection drop.
            }
        }
        return null;
    }

    private Void pump(Socket from, Socket to, AtomicLong counter) {
        byte[] buf = new byte[64 * 1024];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buf)) >= 0) {
                counter.addAndGet(n);
                out.write(buf, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // One side closed.
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
        return null;
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // Already closed.
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        sockets.forEach(CountingProxy::closeQuietly);
        pumps.shutdownNow();
    }
}
