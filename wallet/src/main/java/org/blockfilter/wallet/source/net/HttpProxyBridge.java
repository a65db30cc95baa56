package org.blockfilter.wallet.source.net;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * An HTTP proxy on loopback, for one HTTP source, that opens every connection through a {@link
 * Dialer}: the JDK's {@code HttpClient} speaks only HTTP proxies, so it is pointed here and this
 * carries its bytes over SOCKS5. {@code CONNECT host:port} (HTTPS) is tunnelled as is; a plain
 * request in absolute form ({@code GET http://host:port/path}, which origin servers must accept,
 * RFC 9112 section 3.2.2) is forwarded to its host with the rest of the connection, so one client
 * connection carries one origin (each source has its own client and bridge). The host name is
 * never resolved here. Thread-safe; {@link #close} stops it.
 */
public final class HttpProxyBridge implements AutoCloseable {
    private static final int MAX_HEAD = 64 * 1024;

    private final ServerSocket listener;
    private final Dialer dialer;
    private final int timeoutMillis;

    private HttpProxyBridge(ServerSocket listener, Dialer dialer, int timeoutMillis) {
        this.listener = listener;
        this.dialer = dialer;
        this.timeoutMillis = timeoutMillis;
    }

    /** Listens on a free loopback port. */
    public static HttpProxyBridge start(Dialer dialer, int timeoutMillis) throws IOException {
        ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        HttpProxyBridge bridge = new HttpProxyBridge(listener, dialer, timeoutMillis);
        daemon(bridge::acceptLoop, "http-proxy-bridge");
        return bridge;
    }

    /** The loopback address and port the bridge listens on, to give the HTTP client as its proxy. */
    public InetSocketAddress address() {
        return new InetSocketAddress(listener.getInetAddress(), listener.getLocalPort());
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                daemon(() -> serve(client), "http-proxy-bridge-conn");
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket client) {
        try (client) {
            InputStream in = client.getInputStream();
            byte[] head = readHead(in);
            String requestLine = new String(head, StandardCharsets.ISO_8859_1).split("\r\n", 2)[0];
            String[] parts = requestLine.split(" ");
            if (parts.length != 3) {
                fail(client, "400 Bad Request", "not an HTTP request line: " + requestLine);
                return;
            }
            boolean tunnel = parts[0].equals("CONNECT");
            String host;
            int port;
            if (tunnel) {
                int colon = parts[1].lastIndexOf(':');
                host = parts[1].substring(0, colon);
                port = Integer.parseInt(parts[1].substring(colon + 1));
            } else {
                URI target = URI.create(parts[1]);
                host = target.getHost();
                port = target.getPort() > 0 ? target.getPort() : 80;
            }
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            Socket upstream;
            try {
                upstream = dialer.connect(host, port, timeoutMillis);
            } catch (IOException e) {
                fail(client, "502 Bad Gateway", e.getMessage());
                return;
            }
            try (upstream) {
                if (tunnel) {
                    client.getOutputStream()
                            .write("HTTP/1.1 200 Connection established\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    client.getOutputStream().flush();
                } else {
                    upstream.getOutputStream().write(head);
                    upstream.getOutputStream().flush();
                }
                Thread back = daemon(() -> pipe(upstream, client), "http-proxy-bridge-back");
                pipe(client, upstream);
                back.join();
            }
        } catch (IOException | RuntimeException e) {
            // the client or the upstream went away: the HTTP client sees its connection end
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The request head up to and including the blank line. */
    private static byte[] readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < 4) {
            int b = in.read();
            if (b < 0 || head.size() >= MAX_HEAD) {
                throw new IOException("no complete request head");
            }
            head.write(b);
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return head.toByteArray();
    }

    private static void fail(Socket client, String status, String message) throws IOException {
        byte[] body = (message == null ? status : message).getBytes(StandardCharsets.UTF_8);
        OutputStream out = client.getOutputStream();
        out.write(("HTTP/1.1 " + status + "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
                        + body.length + "\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
    }

    private static void pipe(Socket from, Socket to) {
        byte[] buf = new byte[16 * 1024];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            int n;
            while ((n = in.read(buf)) >= 0) {
                out.write(buf, 0, n);
                out.flush();
            }
            to.shutdownOutput();
        } catch (IOException e) {
            try {
                to.close();
                from.close();
            } catch (IOException ignored) {
                // both ends are going away
            }
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    @Override
    public void close() {
        try {
            listener.close();
        } catch (SocketException e) {
            // already closed
        } catch (IOException e) {
            // closing: nothing to recover
        }
    }
}
