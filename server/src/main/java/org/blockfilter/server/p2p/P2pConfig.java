package org.blockfilter.server.p2p;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.blockfilter.filters.chain.Chain;

/**
 * Settings of the BIP 157 P2P listener. Immutable and thread-safe; no component is null. Start from
 * {@link #forChain} and use the {@code withX} copies (one for each setting a caller changes). Defaults follow Bitcoin Core where Core has a number (ping every 2 min,
 * 20 min inactivity, 24 h ban); the handshake must finish within 10 s (Core allows 60 s, which lets silent
 * connections hold slots for a minute each).
 *
 * @param host              address to bind
 * @param port              TCP port, 0 for a free one
 * @param chain             the network the node behind us is on (its message start is our magic)
 * @param services          service bits we advertise in {@code version}
 * @param maxPeers          connections served at once; more are closed on accept
 * @param handshakeTimeout  time a peer has to complete version/verack
 * @param idleTimeout       a peer silent this long is disconnected
 * @param pingInterval      how often we ping a peer (keeps NATs and idle timers of clients happy)
 * @param writeTimeout      a peer that does not read what we send for this long is disconnected
 * @param banDuration       how long an address whose ban score reached {@link #BAN_THRESHOLD} is refused
 * @param floodRate         messages per second a peer may send on average
 * @param floodBurst        messages a peer may send in a burst above the rate
 * @param sendQueueBytes    bytes queued to one peer before we stop reading its requests (Core's send buffer)
 * @param blockCacheBytes   bytes of raw blocks kept for getdata
 * @param tipPollInterval   how often the index tip is checked for announcements
 * @param slots             how inbound slots are shared: per-address and per-netgroup limits, local ranges
 */
public record P2pConfig(
        String host,
        int port,
        Chain chain,
        long services,
        int maxPeers,
        Duration handshakeTimeout,
        Duration idleTimeout,
        Duration pingInterval,
        Duration writeTimeout,
        Duration banDuration,
        int floodRate,
        int floodBurst,
        long sendQueueBytes,
        long blockCacheBytes,
        Duration tipPollInterval,
        Slots slots) {

    /** NODE_NETWORK: serves every block (the node behind us is not pruned). */
    public static final long NODE_NETWORK = Chain.NODE_NETWORK;
    /** NODE_WITNESS (BIP 144). */
    public static final long NODE_WITNESS = Chain.NODE_WITNESS;
    /** NODE_COMPACT_FILTERS (BIP 157). */
    public static final long NODE_COMPACT_FILTERS = Chain.NODE_COMPACT_FILTERS;
    /** NODE_NETWORK_LIMITED (BIP 159): serves at least the last 288 blocks. */
    public static final long NODE_NETWORK_LIMITED = Chain.NODE_NETWORK_LIMITED;
    /** NODE_P2P_V2 (BIP 324): advertised, and v2 connections accepted, exactly when this bit is set. */
    public static final long NODE_P2P_V2 = Chain.NODE_P2P_V2;
    /** Ban score at which a peer is disconnected and its address banned (Core's DISCOURAGEMENT_THRESHOLD). */
    public static final int BAN_THRESHOLD = 100;

    public P2pConfig {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(chain, "chain");
        Objects.requireNonNull(handshakeTimeout, "handshakeTimeout");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(pingInterval, "pingInterval");
        Objects.requireNonNull(writeTimeout, "writeTimeout");
        Objects.requireNonNull(banDuration, "banDuration");
        Objects.requireNonNull(tipPollInterval, "tipPollInterval");
        Objects.requireNonNull(slots, "slots");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        if (maxPeers < 1
                || floodRate < 1
                || floodBurst < 1
                || sendQueueBytes < 1
                || blockCacheBytes < 0
                || handshakeTimeout.isNegative()
                || handshakeTimeout.isZero()
                || idleTimeout.isNegative()
                || idleTimeout.isZero()
                || pingInterval.isNegative()
                || pingInterval.isZero()
                || writeTimeout.isNegative()
                || writeTimeout.isZero()
                || banDuration.isNegative()
                || tipPollInterval.isNegative()
                || tipPollInterval.isZero()) {
            throw new IllegalArgumentException("invalid P2P configuration: " + this);
        }
    }

    /**
     * Loopback, free port, the chain's magic, NODE_NETWORK | NODE_WITNESS |
     * NODE_COMPACT_FILTERS | NODE_NETWORK_LIMITED | NODE_P2P_V2, 64 peers ({@link Slots#DEFAULT}), a 10 s
     * handshake, Core's other timeouts and ban time.
     */
    public static P2pConfig forChain(Chain chain) {
        return new P2pConfig(
                "127.0.0.1",
                0,
                chain,
                NODE_NETWORK | NODE_WITNESS | NODE_COMPACT_FILTERS | NODE_NETWORK_LIMITED | NODE_P2P_V2,
                64,
                Duration.ofSeconds(10),
                Duration.ofMinutes(20),
                Duration.ofMinutes(2),
                Duration.ofSeconds(60),
                Duration.ofHours(24),
                200,
                10_000,
                8L << 20,
                64L << 20,
                Duration.ofMillis(200),
                Slots.DEFAULT);
    }

    /**
     * How inbound slots are shared (docs/p2p.md, "Slots"). A peer whose address is in a local range
     * (loopback: Tor's onion service and reverse proxies connect from there; and {@code
     * --p2p-whitelist}) is exempt from both limits and is disconnected, never banned.
     *
     * @param maxPerAddress  connections from one non-local address
     * @param maxPerNetgroup connections from one netgroup (IPv4 /16, IPv6 /32) of non-local addresses
     * @param localRanges    the ranges whose peers are local
     */
    public record Slots(int maxPerAddress, int maxPerNetgroup, List<NetRange> localRanges) {
        /** 4 per address, 8 per netgroup, loopback local. */
        public static final Slots DEFAULT = new Slots(4, 8, List.of(NetRange.LOOPBACK_V4, NetRange.LOOPBACK_V6));

        public Slots {
            localRanges = List.copyOf(localRanges);
            if (maxPerAddress < 1 || maxPerNetgroup < maxPerAddress) {
                throw new IllegalArgumentException(
                        "need 1 <= maxPerAddress <= maxPerNetgroup, got " + maxPerAddress + " and " + maxPerNetgroup);
            }
        }

        /** These slots with {@code more} ranges counted as local too. */
        public Slots withLocal(List<NetRange> more) {
            List<NetRange> all = new java.util.ArrayList<>(localRanges);
            all.addAll(more);
            return new Slots(maxPerAddress, maxPerNetgroup, all);
        }

        /** These slots with exactly {@code ranges} local (tests use it to make loopback addresses remote). */
        public Slots withLocalOnly(List<NetRange> ranges) {
            return new Slots(maxPerAddress, maxPerNetgroup, ranges);
        }

        public boolean isLocal(java.net.InetAddress address) {
            for (NetRange r : localRanges) {
                if (r.contains(address)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** The chain's name as Core's getblockchaininfo reports it ("main", "test", "testnet4", "signet", "regtest"). */
    public String network() {
        return chain.coreName();
    }

    /** The chain's message start, big-endian (regtest 0xfabfb5da). */
    public long magic() {
        return chain.magic();
    }

    public P2pConfig withHost(String v) {
        return edit(f -> f.host = v);
    }

    public P2pConfig withPort(int v) {
        return edit(f -> f.port = v);
    }

    public P2pConfig withServices(long v) {
        return edit(f -> f.services = v);
    }

    public P2pConfig withMaxPeers(int v) {
        return edit(f -> f.maxPeers = v);
    }

    public P2pConfig withTimeouts(Duration handshake, Duration idle, Duration ping, Duration write) {
        return edit(f -> {
            f.handshakeTimeout = handshake;
            f.idleTimeout = idle;
            f.pingInterval = ping;
            f.writeTimeout = write;
        });
    }

    public P2pConfig withBanDuration(Duration v) {
        return edit(f -> f.banDuration = v);
    }

    public P2pConfig withFloodLimit(int rate, int burst) {
        return edit(f -> {
            f.floodRate = rate;
            f.floodBurst = burst;
        });
    }

    public P2pConfig withSendQueueBytes(long v) {
        return edit(f -> f.sendQueueBytes = v);
    }

    public P2pConfig withTipPollInterval(Duration v) {
        return edit(f -> f.tipPollInterval = v);
    }

    public P2pConfig withSlots(Slots v) {
        return edit(f -> f.slots = v);
    }

    /** This configuration with {@code change} applied to a copy of its components, validated again. */
    private P2pConfig edit(Consumer<Fields> change) {
        Fields f = new Fields(this);
        change.accept(f);
        return f.toConfig();
    }

    /**
     * The components as mutable fields, for the {@code withX} copies: with the record header, the
     * one place that lists them all, so a new component is added here and in the header only.
     */
    private static final class Fields {
        String host;
        int port;
        Chain chain;
        long services;
        int maxPeers;
        Duration handshakeTimeout;
        Duration idleTimeout;
        Duration pingInterval;
        Duration writeTimeout;
        Duration banDuration;
        int floodRate;
        int floodBurst;
        long sendQueueBytes;
        long blockCacheBytes;
        Duration tipPollInterval;
        Slots slots;

        Fields(P2pConfig c) {
            host = c.host;
            port = c.port;
            chain = c.chain;
            services = c.services;
            maxPeers = c.maxPeers;
            handshakeTimeout = c.handshakeTimeout;
            idleTimeout = c.idleTimeout;
            pingInterval = c.pingInterval;
            writeTimeout = c.writeTimeout;
            banDuration = c.banDuration;
            floodRate = c.floodRate;
            floodBurst = c.floodBurst;
            sendQueueBytes = c.sendQueueBytes;
            blockCacheBytes = c.blockCacheBytes;
            tipPollInterval = c.tipPollInterval;
            slots = c.slots;
        }

        P2pConfig toConfig() {
            return new P2pConfig(
                    host,
                    port,
                    chain,
                    services,
                    maxPeers,
                    handshakeTimeout,
                    idleTimeout,
                    pingInterval,
                    writeTimeout,
                    banDuration,
                    floodRate,
                    floodBurst,
                    sendQueueBytes,
                    blockCacheBytes,
                    tipPollInterval,
                    slots);
        }
    }
}
