package org.blockfilter.wallet.source.net;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A SOCKS5 server for tests that records what each client asked (the methods it offered, its
 * username, the CONNECT target as sent) and connects every target to one local port, whatever
 * its name: so a name that resolves nowhere still reaches the test's server, which proves the
 * client never looked it up.
 */
final class ScriptedSocksProxy implements AutoCloseable {
    record Request(List<Integer> methods, String username, int addressType, String target) {}

    private final ServerSocket listener;
    private final int forwardTo;
    private final boolean chooseUserPass;
    final List<Request> requests = new CopyOnWriteArrayList<>();

    ScriptedSocksProxy(int forwardTo, boolean chooseUserPass) throws IOException {
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.forwardTo = forwardTo;
        this.chooseUserPass = chooseUserPass;
        Thread t = new Thread(this::acceptLoop, "scripted-socks");
        t.setDaemon(true);
        t.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket s = listener.accept();
                Thread t = new Thread(() -> serve(s), "scripted-socks-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket client) {
        try (client) {
            DataInputStream in = new DataInputStream(client.getInputStream());
            OutputStream out = client.getOutputStream();
            in.readUnsignedByte();
            int n = in.readUnsignedByte();
            List<Integer> methods = new java.util.ArrayList<>();
            for (int i = 0; i < n; i++) {
                methods.add(in.readUnsignedByte());
            }
            String user = null;
            if (chooseUserPass && methods.contains(2)) {
                out.write(new byte[] {5, 2});
                in.readUnsignedByte();
                user = new String(in.readNBytes(in.readUnsignedByte()), StandardCharsets.UTF_8);
                in.readNBytes(in.readUnsignedByte());
                out.write(new byte[] {1, 0});
            } else {
                out.write(new byte[] {5, 0});
            }
            in.readUnsignedByte();
            in.readUnsignedByte();
            in.readUnsignedByte();
            int type = in.readUnsignedByte();
            String host = switch (type) {
                case 1 -> InetAddress.getByAddress(in.readNBytes(4)).getHostAddress();
                case 4 -> InetAddress.getByAddress(in.readNBytes(16)).getHostAddress();
                default -> new String(in.readNBytes(in.readUnsignedByte()), StandardCharsets.US_ASCII);
            };
            int port = in.readUnsignedShort();
            requests.add(new Request(List.copyOf(methods), user, type, host + ":" + port));
            try (Socket upstream = new Socket(InetAddress.getLoopbackAddress(), forwardTo)) {
                out.write(new byte[] {5, 0, 0, 1, 127, 0, 0, 1, 0, 0});
                out.flush();
                Thread back = new Thread(() -> copy(upstream, client));
                back.setDaemon(true);
                back.start();
                copy(client, upstream);
                back.join(5_000);
            }
        } catch (IOException | InterruptedException e) {
            // the client went away
        }
    }

    private static void copy(Socket from, Socket to) {
        try {
            InputStream in = from.getInputStream();
            in.transferTo(to.getOutputStream());
            to.shutdownOutput();
        } catch (IOException e) {
            // one side closed
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}
