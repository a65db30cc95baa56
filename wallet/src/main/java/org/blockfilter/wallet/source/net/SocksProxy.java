package org.blockfilter.wallet.source.net;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.URISyntaxException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import org.blockfilter.wallet.source.net.internal.Socks5;

/**
 * A SOCKS5 proxy for every connection of the wallet's sources ({@code --proxy
 * socks5h://HOST:PORT}): host names go to the proxy unresolved (RFC 1928 address type 3), so no
 * name is looked up here. With {@link #isolating()} each source gets its own fresh random
 * username and password (RFC 1929), which Tor's {@code IsolateSOCKSAuth} (on by default) turns
 * into a separate circuit per source, so the exits cannot link the wallet's sources. Immutable and
 * thread-safe.
 *
 * @param host        the proxy's host (a literal or a name; the proxy itself is resolved here)
 * @param port        the proxy's port
 * @param credentials username and password from the URL, if any (with isolation they are replaced)
 * @param isolating   whether each source gets fresh credentials
 */
public record SocksProxy(String host, int port, Optional<Credentials> credentials, boolean isolating) {
    private static final SecureRandom RANDOM = new SecureRandom();

    /** RFC 1929 username and password (each at most 255 bytes). */
    public record Credentials(String username, String password) {
        public Credentials {
            Objects.requireNonNull(username, "username");
            Objects.requireNonNull(password, "password");
        }
    }

    public SocksProxy {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(credentials, "credentials");
    }

    /**
     * Parses {@code socks5h://[USER:PASS@]HOST:PORT}.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static SocksProxy parse(String url) {
        URI u;
        try {
            u = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("--proxy must be socks5h://HOST:PORT, got '" + url + "'");
        }
        if ("socks5".equalsIgnoreCase(u.getScheme())) {
            throw new IllegalArgumentException("--proxy " + url + ": use socks5h:// (the proxy resolves host names); "
                    + "socks5:// would resolve them here, in the clear");
        }
        if (!"socks5h".equalsIgnoreCase(u.getScheme()) || u.getHost() == null || u.getPort() < 1) {
            throw new IllegalArgumentException("--proxy must be socks5h://HOST:PORT, e.g. socks5h://127.0.0.1:9050 "
                    + "(Tor's SocksPort), got '" + url + "'");
        }
        if (u.getPath() != null && !u.getPath().isEmpty() && !u.getPath().equals("/")) {
            throw new IllegalArgumentException("--proxy takes no path: '" + url + "'");
        }
        Optional<Credentials> credentials = Optional.empty();
        if (u.getRawUserInfo() != null) {
            String info = u.getUserInfo();
            int colon = info.indexOf(':');
            credentials = Optional.of(
                    colon < 0
                            ? new Credentials(info, "")
                            : new Credentials(info.substring(0, colon), info.substring(colon + 1)));
        }
        String host = u.getHost().startsWith("[")
                ? u.getHost().substring(1, u.getHost().length() - 1)
                : u.getHost();
        return new SocksProxy(host, u.getPort(), credentials, false);
    }

    /**
     * A copy with stream isolation on or off: on, each source gets its own random credentials, so Tor puts it on its
     * own circuit.
     */
    public SocksProxy withIsolation(boolean on) {
        return new SocksProxy(host, port, credentials, on);
    }

    /** The dialer for one source: with isolation, its own fresh credentials, kept for all its connections. */
    public Dialer dialerForSource() {
        Optional<Credentials> c = credentials;
        if (isolating) {
            byte[] user = new byte[16];
            byte[] pass = new byte[16];
            RANDOM.nextBytes(user);
            RANDOM.nextBytes(pass);
            c = Optional.of(new Credentials(
                    HexFormat.of().formatHex(user), HexFormat.of().formatHex(pass)));
        }
        Optional<Credentials> chosen = c;
        SocksProxy proxy = this;
        return new Dialer() {
            @Override
            public Socket connect(String targetHost, int targetPort, int timeoutMillis) throws IOException {
                return Socks5.connect(
                        proxy.host,
                        proxy.port,
                        chosen.map(Credentials::username).orElse(null),
                        chosen.map(Credentials::password).orElse(null),
                        targetHost,
                        targetPort,
                        timeoutMillis);
            }

            @Override
            public String toString() {
                return "socks5h://" + proxy.host + ":" + proxy.port + (proxy.isolating ? " (isolated)" : "");
            }
        };
    }

    @Override
    public String toString() {
        return "socks5h://" + host + ":" + port + (isolating ? " (a fresh username per source)" : "");
    }
}
