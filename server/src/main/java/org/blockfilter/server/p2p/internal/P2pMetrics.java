package org.blockfilter.server.p2p.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The P2P listener's Prometheus meters: messages and bytes received and sent by command, time
 * spent answering each command, misbehaviour by reason, bans, refused connections, disconnects
 * by reason, connected peers and the bytes held in payload buffers. Commands outside the
 * protocol's known set are counted as {@code other}, so a hostile peer cannot create meters.
 * Thread-safe.
 */
public final class P2pMetrics {
    /** Commands that get their own label value. */
    static final Set<String> KNOWN = Set.of(
            "version",
            "verack",
            "ping",
            "pong",
            "getheaders",
            "headers",
            "sendheaders",
            "getcfilters",
            "cfilter",
            "getcfheaders",
            "cfheaders",
            "getcfcheckpt",
            "cfcheckpt",
            "getdata",
            "notfound",
            "inv",
            "block",
            "tx",
            "reject",
            "wtxidrelay",
            "sendaddrv2",
            "getaddr",
            "addr",
            "addrv2",
            "feefilter",
            "sendcmpct",
            "mempool",
            "getblocks",
            "filterload",
            "filteradd",
            "filterclear",
            "merkleblock",
            "cmpctblock",
            "getblocktxn",
            "blocktxn");

    private final MeterRegistry registry;
    private final ConcurrentHashMap<String, Counter> counters = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Timer> timers = new ConcurrentHashMap<>();
    private final AtomicInteger peers = new AtomicInteger();
    private final AtomicLong buffered = new AtomicLong();
    private final Counter bans;

    public P2pMetrics(MeterRegistry registry, LongSupplier blockCacheBytes) {
        this.registry = registry;
        Gauge.builder("blockfilter_p2p_peers", peers, AtomicInteger::get)
                .description("Connected P2P peers")
                .register(registry);
        Gauge.builder("blockfilter_p2p_payload_buffer_bytes", buffered, AtomicLong::get)
                .description("Bytes allocated for P2P payloads being received")
                .register(registry);
        bans = Counter.builder("blockfilter_p2p_bans")
                .description("Peers banned after reaching the ban score")
                .register(registry);
        Gauge.builder("blockfilter_p2p_block_cache_bytes", blockCacheBytes, LongSupplier::getAsLong)
                .description("Raw blocks cached for P2P getdata")
                .register(registry);
    }

    static String label(String command) {
        return KNOWN.contains(command) ? command : "other";
    }

    private Counter counter(String name, String description, String tagKey, String tagValue) {
        return counters.computeIfAbsent(
                name + '|' + tagValue,
                k -> Counter.builder(name)
                        .description(description)
                        .tag(tagKey, tagValue)
                        .register(registry));
    }

    public void received(String command, int bytes) {
        String c = label(command);
        counter("blockfilter_p2p_messages_received", "P2P messages received by command", "command", c)
                .increment();
        counter(
                        "blockfilter_p2p_received_bytes",
                        "P2P bytes received by command (on the wire: v1 header or v2 packet overhead included)",
                        "command",
                        c)
                .increment(bytes);
    }

    public void sent(String command, int bytes) {
        String c = label(command);
        counter("blockfilter_p2p_messages_sent", "P2P messages sent by command", "command", c)
                .increment();
        counter(
                        "blockfilter_p2p_sent_bytes",
                        "P2P bytes sent by command (on the wire: v1 header or v2 packet overhead included)",
                        "command",
                        c)
                .increment(bytes);
    }

    public void handled(String command, long nanos) {
        timers.computeIfAbsent(
                        label(command),
                        c -> Timer.builder("blockfilter_p2p_handle")
                                .description("Time to answer a P2P message, by command")
                                .tag("command", c)
                                .register(registry))
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    public void misbehaved(String reason) {
        counter("blockfilter_p2p_misbehaviour", "P2P protocol violations by reason", "reason", reason)
                .increment();
    }

    /** A connection whose transport was settled: {@code v1}, or {@code v2} after its BIP 324 handshake. */
    public void session(String transport) {
        counter(
                        "blockfilter_p2p_sessions",
                        "P2P connections by transport (v1, or v2 after its handshake)",
                        "transport",
                        transport)
                .increment();
    }

    public void banned() {
        bans.increment();
    }

    public void refused(String why) {
        counter("blockfilter_p2p_refused_connections", "Connections refused on accept", "reason", why)
                .increment();
    }

    public void disconnected(String reason) {
        counter("blockfilter_p2p_disconnects", "P2P disconnections by reason", "reason", reason)
                .increment();
    }

    public void relayed(String outcome) {
        counter("blockfilter_p2p_tx_relayed", "Transactions from P2P peers relayed to the node", "outcome", outcome)
                .increment();
    }

    public AtomicInteger peers() {
        return peers;
    }

    /** Bytes currently allocated for payloads being received, across all peers. */
    public AtomicLong payloadBuffer() {
        return buffered;
    }
}
