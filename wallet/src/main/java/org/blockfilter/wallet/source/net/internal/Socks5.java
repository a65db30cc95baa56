package org.blockfilter.wallet.source.net.internal;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;

/**
 * The client side of SOCKS5 (RFC 1928) with username/password authentication (RFC 1929): CONNECT
 * to a host name the proxy resolves (address type 3), or to an address literal as itself. Stateless.
 */
public final class Socks5 {
    private static final int VERSION = 5;
    private static final int NO_AUTH = 0;
    private static final int USER_PASS = 2;
    private static final int NO_ACCEPTABLE = 0xff;
    private static final int CONNECT = 1;

    private Socks5() {}

    /**
     * Connects to the proxy and through it to {@code host:port}; the whole exchange within {@code
     * timeoutMillis}. With a username the proxy may choose username/password (Tor does, and
     * isolates by it) or no authentication; without, only no authentication is offered.
     *
     * @throws ConnectException the proxy refused our connection, or reported the target refused or unreachable
     * @throws UnknownHostException the proxy could not resolve {@code host}
     * @throws SocketTimeoutException no answer in time
     * @throws IOException anything else the proxy said, named
     */
    public static Socket connect(
            String proxyHost, int proxyPort, String username, String password, String host, int port, int timeoutMillis)
            throws IOException {
        String proxy = proxyHost + ":" + proxyPort;
        Socket socket = new Socket();
        try {
            try {
                socket.connect(new InetSocketAddress(proxyHost, proxyPort), timeoutMillis);
            } catch (ConnectException e) {
                throw new ConnectException("the proxy " + proxy + " refused the connection (" + e.getMessage() + ")");
            } catch (SocketTimeoutException e) {
                throw new SocketTimeoutException(
                        "no TCP connection to the proxy " + proxy + " within " + timeoutMillis + " ms");
            }
            socket.setSoTimeout(timeoutMillis);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write(
                    username == null ? new byte[] {VERSION, 1, NO_AUTH} : new byte[] {VERSION, 2, NO_AUTH, USER_PASS});
            out.flush();
            int version = read(in, proxy);
            int method = read(in, proxy);
            if (version != VERSION) {
                throw new IOException(proxy + " is not a SOCKS5 proxy (its first byte is " + version + ")");
            }
            if (method == USER_PASS && username != null) {
                authenticate(in, out, proxy, username, password);
            } else if (method != NO_AUTH) {
                throw new IOException("the proxy " + proxy + " accepts none of our authentication methods"
                        + (method == NO_ACCEPTABLE ? "" : " (it chose " + method + ")")
                        + (username == null ? "; give socks5h://USER:PASS@HOST:PORT if it needs a password" : ""));
            }
            out.write(request(host, port));
            out.flush();
            reply(in, proxy, host + ":" + port);
            socket.setSoTimeout(0);
            return socket;
        } catch (SocketTimeoutException e) {
            socket.close();
            throw e.getMessage() != null && e.getMessage().contains("proxy")
                    ? e
                    : new SocketTimeoutException("the proxy " + proxy + " did not answer within " + timeoutMillis
                            + " ms (connecting to " + host + ":" + port + ")");
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    private static void authenticate(InputStream in, OutputStream out, String proxy, String user, String pass)
            throws IOException {
        byte[] u = user.getBytes(StandardCharsets.UTF_8);
        byte[] p = pass.getBytes(StandardCharsets.UTF_8);
        if (u.length > 255 || p.length > 255) {
            throw new IllegalArgumentException("SOCKS5 username and password are at most 255 bytes each");
        }
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(1);
        b.write(u.length);
        b.write(u, 0, u.length);
        b.write(p.length);
        b.write(p, 0, p.length);
        out.write(b.toByteArray());
        out.flush();
        read(in, proxy);
        if (read(in, proxy) != 0) {
            throw new IOException("the proxy " + proxy + " refused our username and password");
        }
    }

    /** CONNECT: an address literal as itself (type 1 or 4), anything else as a name for the proxy (type 3). */
    static byte[] request(String host, int port) throws UnknownHostException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(VERSION);
        b.write(CONNECT);
        b.write(0);
        byte[] literal = literal(host);
        if (literal != null) {
            b.write(literal.length == 4 ? 1 : 4);
            b.write(literal, 0, literal.length);
        } else {
            byte[] name = host.getBytes(StandardCharsets.US_ASCII);
            if (name.length > 255) {
                throw new UnknownHostException("host name longer than 255 bytes: " + host);
            }
            b.write(3);
            b.write(name.length);
            b.write(name, 0, name.length);
        }
        b.write(port >>> 8);
        b.write(port & 0xff);
        return b.toByteArray();
    }

    /** The bytes of an IPv4 or IPv6 literal, null for a name (never looked up). */
    private static byte[] literal(String host) throws UnknownHostException {
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (h.matches("\\d{1,3}(\\.\\d{1,3}){3}") || (h.contains(":") && h.matches("[0-9a-fA-F:.]+"))) {
            return InetAddress.getByName(h).getAddress(); // a literal: parsed, not resolved
        }
        return null;
    }

    private static void reply(InputStream in, String proxy, String target) throws IOException {
        read(in, proxy);
        int rep = read(in, proxy);
        read(in, proxy);
        int type = read(in, proxy);
        int skip = switch (type) {
            case 1 -> 4;
            case 4 -> 16;
            case 3 -> read(in, proxy);
            default -> throw new IOException("the proxy " + proxy + " answered with address type " + type);
        };
        for (int i = 0; i < skip + 2; i++) {
            read(in, proxy);
        }
        String through = " (through the proxy " + proxy + ")";
        switch (rep) {
            case 0 -> {}
            case 4 ->
                throw new UnknownHostException(
                        target + " is unreachable or its name did not resolve" + through + ", SOCKS5 reply 4");
            case 5 -> throw new ConnectException(target + " refused the connection" + through);
            case 3 -> throw new ConnectException("the network of " + target + " is unreachable" + through);
            case 2 -> throw new ConnectException("the proxy's rules do not allow a connection to " + target + through);
            case 6 -> throw new SocketTimeoutException("the proxy's connection to " + target + " timed out" + through);
            default ->
                throw new IOException("the proxy " + proxy + " could not connect to " + target + ": SOCKS5 reply " + rep
                        + (rep == 1 ? " (general failure)" : ""));
        }
    }

    private static int read(InputStream in, String proxy) throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new EOFException("the proxy " + proxy + " closed the connection during the SOCKS5 exchange");
        }
        return b;
    }
}
