package org.blockfilter.regtest.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * Picks a free 127.0.0.1 port by binding port 0 and closing it. Another process may take the
 * port before the node binds it, so callers retry the start with new ports when bind fails.
 */
public final class FreePorts {
    private FreePorts() {}

    public static int pick() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(false);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port on 127.0.0.1", e);
        }
    }
}
