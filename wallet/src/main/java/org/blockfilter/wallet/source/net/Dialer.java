package org.blockfilter.wallet.source.net;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;

/**
 * Opens one TCP connection of a source to {@code host:port}. {@link #DIRECT} resolves the name
 * here and connects; a {@link SocksProxy} dialer hands the name to the proxy. Implementations are
 * thread-safe.
 */
public interface Dialer {
    /**
     * A connected socket.
     *
     * @throws UnknownHostException the name did not resolve
     * @throws ConnectException the connection was refused
     * @throws SocketTimeoutException no connection within {@code timeoutMillis}
     */
    Socket connect(String host, int port, int timeoutMillis) throws IOException;

    /** Whether connections go straight to the host (no proxy). */
    default boolean direct() {
        return false;
    }

    /** Resolves here and connects straight to the host. */
    Dialer DIRECT = new Dialer() {
        @Override
        public Socket connect(String host, int port, int timeoutMillis) throws IOException {
            InetSocketAddress address = new InetSocketAddress(host, port);
            if (address.isUnresolved()) {
                throw new UnknownHostException("the host name " + host + " did not resolve");
            }
            Socket socket = new Socket();
            try {
                socket.connect(address, timeoutMillis);
                return socket;
            } catch (IOException e) {
                socket.close();
                throw e;
            }
        }

        @Override
        public boolean direct() {
            return true;
        }

        @Override
        public String toString() {
            return "direct";
        }
    };
}
