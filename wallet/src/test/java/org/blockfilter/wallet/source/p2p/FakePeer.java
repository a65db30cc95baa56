package org.blockfilter.wallet.source.p2p;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.bitcoinj.params.RegTestParams;
import org.blockfilter.filters.p2p.Message;
import org.blockfilter.filters.p2p.MessageCodec;
import org.blockfilter.filters.p2p.MessageFrame;

/**
 * A scripted Bitcoin peer on 127.0.0.1 (free port) for P2pSource tests: it handshakes with the
 * given services and answers each request with what the script returns (an empty list: it stays
 * silent, as btcd does for requests it ignores), and a ping also with its pong after that.
 * Connections are served one after another.
 */
final class FakePeer implements AutoCloseable {
    static final byte[] MAGIC = {(byte) 0xfa, (byte) 0xbf, (byte) 0xb5, (byte) 0xda};

    private final ServerSocket server;
    private final ExecutorService executor = Executors.newSingleThreadExecutor();
    private final AtomicInteger connections = new AtomicInteger();
    private final long services;
    /** (connection number from 1, request) -> answers. */
    private final BiFunction<Integer, Message, List<Message>> script;

    FakePeer(long services, BiFunction<Integer, Message, List<Message>> script) throws IOException {
        this.services = services;
        this.script = script;
        this.server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        executor.submit(this::serve);
    }

    InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", server.getLocalPort());
    }

    int connections() {
        return connections.get();
    }

    private Void serve() {
        while (!server.isClosed()) {
            try (Socket s = server.accept()) {
                int n = connections.incrementAndGet();
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                while (true) {
                    Message m = MessageFrame.read(in, MAGIC).decode();
                    List<Message> answers = new ArrayList<>();
                    if (m instanceof Message.Version) {
                        answers.add(new Message.Version(70016, services, 0, 0, 99, "/fake:1/", 0, true));
                        answers.add(new Message.Verack());
                    } else {
                        answers.addAll(script.apply(n, m));
                    }
                    if (m instanceof Message.Ping p) {
                        // As every node since BIP 31, after whatever the script sent first.
                        answers.add(new Message.Pong(p.nonce()));
                    }
                    for (Message a : answers) {
                        // Unknown(command, n): a message we do not model, sent with n zero bytes.
                        byte[] body = a instanceof Message.Unknown u ? new byte[u.length()] : MessageCodec.encode(a);
                        out.write(MessageFrame.encode(MAGIC, a.command(), body));
                    }
                    out.flush();
                }
            } catch (IOException | RuntimeException e) {
                // Client went away (or the test closed us): serve the next connection.
            }
        }
        return null;
    }

    static byte[] genesisHeader() {
        return Arrays.copyOf(RegTestParams.get().getGenesisBlock().serialize(), 80);
    }

    @Override
    public void close() throws IOException {
        server.close();
        executor.shutdownNow();
    }
}
