package org.blockfilter.server.p2p.internal;

import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/** Banned peer addresses with their expiry ({@link System#nanoTime()} based). Thread-safe. */
public final class BanList {
    private final ConcurrentHashMap<InetAddress, Long> until = new ConcurrentHashMap<>();

    public void ban(InetAddress address, Duration duration) {
        until.put(address, System.nanoTime() + duration.toNanos());
    }

    public boolean isBanned(InetAddress address) {
        Long expiry = until.get(address);
        if (expiry == null) {
            return false;
        }
        if (System.nanoTime() - expiry >= 0) {
            until.remove(address, expiry);
            return false;
        }
        return true;
    }

    public int size() {
        until.keySet().removeIf(a -> !isBanned(a));
        return until.size();
    }
}
