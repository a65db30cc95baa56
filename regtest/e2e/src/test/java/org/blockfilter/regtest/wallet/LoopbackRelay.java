package org.blockfilter.regtest.wallet;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A TCP relay on 127.0.0.1 (free port) to one target: each accepted client gets its own connection
 * to the target and two pump tasks, one each way, that subclasses write (count, alter, pass on).
 * Subclasses call {@link #start()} at the end of their constructor.
 */
public abstract class LoopbackRelay implements AutoCloseable {
    private final ServerSocket server;
    private final InetSocketAddress target;
    private final ExecutorService pumps;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    protected LoopbackRelay(InetSocketAddress target, String threadName) throws IOException {
        this.target = target;
        this.server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        this.pumps = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts accepting clients. */
    protected final void start() {
        pumps.submit(this::accept);
    }

    public InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", server.getLocalPort());
    }

    /** Relays bytes from the client to the target until either side closes. */
    protected abstract void toTarget(Socket client, Socket upstream) throws IOException;

    /** Relays bytes from the target to the client until either side closes. */
    protected abstract void toClient(Socket upstream, Socket client) throws IOException;

    private Void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket(target.getAddress(), target.getPort());
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(upstream);
                pumps.submit(() -> pump(() -> toTarget(client, upstream), client, upstream));
                pumps.submit(() -> pump(() -> toClient(upstream, client), client, upstream));
            } catch (IOException e) {
                // Closed, or the target refused: the client sees its connection drop.
            }
        }
        return null;
    }

    private interface Pump {
        void run() throws IOException;
    }

    private static Void pump(Pump pump, Socket a, Socket b) {
        try {
            pump.run();
        } catch (IOException e) {
            // One side closed.
        } finally {
            closeQuietly(a);
            closeQuietly(b);
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
        sockets.forEach(LoopbackRelay::closeQuietly);
        pumps.shutdownNow();
    }
}
