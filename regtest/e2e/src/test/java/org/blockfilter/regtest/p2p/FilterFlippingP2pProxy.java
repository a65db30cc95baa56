package org.blockfilter.regtest.p2p;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.bitcoinj.base.Sha256Hash;

/**
 * An adversary between a P2P light client and our server (127.0.0.1, free port): it relays every
 * message both ways, except that in every {@code cfilter} message for one block it flips the last byte
 * of the filter and fixes the frame's checksum, so only a client that checks filters against filter
 * headers can notice, and asking again gets the same lie.
 */
final class FilterFlippingP2pProxy implements AutoCloseable {
    private final ServerSocket server;
    private final InetSocketAddress target;
    /** The block's hash in wire order, as in the cfilter payload after the filter type byte. */
    private final byte[] blockHash;
    private final AtomicInteger flipped = new AtomicInteger();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final ExecutorService pumps = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "filter-flipping-proxy");
        t.setDaemon(true);
        return t;
    });

    FilterFlippingP2pProxy(InetSocketAddress target, Sha256Hash block) throws IOException {
        this.target = target;
        this.blockHash = block.serialize();
        this.server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        pumps.submit(this::accept);
    }

    int port() {
        return server.getLocalPort();
    }

    /** How many filters were altered so far. */
    int flipped() {
        return flipped.get();
    }

    private Void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket(target.getAddress(), target.getPort());
                sockets.add(client);
                sockets.add(upstream);
                pumps.submit(() -> raw(client, upstream));
                pumps.submit(() -> frames(upstream, client));
            } catch (IOException e) {
                // closed
            }
        }
        return null;
    }

    private Void raw(Socket from, Socket to) {
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            in.transferTo(out);
        } catch (IOException e) {
            // one side closed
        } finally {
            close(from);
            close(to);
        }
        return null;
    }

    /** Relays 24-byte-header frames (magic, command, length, checksum, payload), altering the chosen cfilter. */
    private Void frames(Socket from, Socket to) {
        try (DataInputStream in = new DataInputStream(from.getInputStream());
                OutputStream out = to.getOutputStream()) {
            byte[] header = new byte[24];
            while (true) {
                in.readFully(header);
                int length = (header[16] & 0xff) | (header[17] & 0xff) << 8 | (header[18] & 0xff) << 16
                        | (header[19] & 0xff) << 24;
                byte[] payload = in.readNBytes(length);
                String command = new String(header, 4, 12, StandardCharsets.US_ASCII).replace("\0", "");
                if (command.equals("cfilter")
                        && payload.length > 34
                        && Arrays.equals(payload, 1, 33, blockHash, 0, 32)) {
                    payload[payload.length - 1] ^= 0x01;
                    byte[] sum = sha256d(payload);
                    System.arraycopy(sum, 0, header, 20, 4);
                    flipped.incrementAndGet();
                }
                out.write(header);
                out.write(payload);
                out.flush();
            }
        } catch (IOException e) {
            // one side closed
        } finally {
            close(from);
            close(to);
        }
        return null;
    }

    private static byte[] sha256d(byte[] b) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            return sha.digest(sha.digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void close(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closed already
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        sockets.forEach(FilterFlippingP2pProxy::close);
        pumps.shutdownNow();
    }
}
