package org.blockfilter.regtest.wallet;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP relay on 127.0.0.1 (free port) to one target that counts the bytes each way, so BIP 157
 * and BIP 37 clients can be measured on the wire the same way whatever their implementation.
 */
public final class CountingProxy extends LoopbackRelay {
    private final AtomicLong down = new AtomicLong();
    private final AtomicLong up = new AtomicLong();

    public CountingProxy(InetSocketAddress target) throws IOException {
        super(target, "counting-proxy");
        start();
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

    @Override
    protected void toTarget(Socket client, Socket upstream) throws IOException {
        copy(client, upstream, up);
    }

    @Override
    protected void toClient(Socket upstream, Socket client) throws IOException {
        copy(upstream, client, down);
    }

    private static void copy(Socket from, Socket to, AtomicLong counter) throws IOException {
        byte[] buf = new byte[64 * 1024];
        InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream();
        int n;
        while ((n = in.read(buf)) >= 0) {
            counter.addAndGet(n);
            out.write(buf, 0, n);
            out.flush();
        }
    }
}
