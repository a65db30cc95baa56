package org.blockfilter.server.p2p.internal;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.blockfilter.server.p2p.P2pConfig;

/**
 * Who gets an inbound slot: per-address and per-netgroup limits, and when every slot is taken,
 * Bitcoin Core's eviction ({@code SelectNodeToEvict} in {@code src/node/eviction.cpp}): protect
 * peers an attacker cannot cheaply imitate, then drop the youngest peer of the netgroup holding
 * the most connections. Immutable and thread-safe; the caller passes a snapshot of the peers,
 * and eviction reads each peer's changing figures (ping, last request) once.
 */
public final class InboundSlots {
    /** Peers kept from distinct netgroups chosen by a secret hash (Core keeps 4 by keyed netgroup). */
    static final int PROTECT_BY_NETGROUP = 4;
    /** Peers kept for the lowest ping (Core: 8). */
    static final int PROTECT_BY_PING = 8;
    /** Peers kept for the most recent request we served (Core: 4 by transactions and 4 by blocks). */
    static final int PROTECT_BY_USEFULNESS = 8;

    /** What the eviction logic needs to know about a connected peer. */
    public interface Peer {
        InetAddress address();

        boolean local();

        /** {@link InboundSlots#netgroup} of the address, computed once. */
        String netgroup();

        /** {@link System#nanoTime()} at accept. */
        long connectedNanos();

        /** Lowest ping round trip measured, {@link Long#MAX_VALUE} before the first pong. */
        long minPingNanos();

        /** {@link System#nanoTime()} of the last request we answered with data, 0 if none. */
        long lastUsefulNanos();
    }

    /** The answer to a new connection. */
    public sealed interface Decision<P> {
        record Accept<P>() implements Decision<P> {}

        /** Close the new connection; {@code reason} is the refusal metric's label. */
        record Refuse<P>(String reason) implements Decision<P> {}

        /** Disconnect {@code victim}, then accept. */
        record Evict<P>(P victim) implements Decision<P> {}
    }

    private final P2pConfig.Slots slots;
    private final int maxPeers;
    private final long secret;

    /** {@code secret} keys the netgroup hash, so an attacker cannot pick a netgroup that is protected. */
    public InboundSlots(P2pConfig.Slots slots, int maxPeers, long secret) {
        this.slots = Objects.requireNonNull(slots, "slots");
        this.maxPeers = maxPeers;
        this.secret = secret;
    }

    public boolean isLocal(InetAddress address) {
        return slots.isLocal(address);
    }

    /**
     * The netgroup of an address: IPv4 /16, IPv6 /32 (as Core's {@code CNetAddr::GetGroup} for
     * plain IPv4 and IPv6), and one group for all local peers (Core groups local addresses too).
     */
    public String netgroup(InetAddress address) {
        if (isLocal(address)) {
            return "local";
        }
        byte[] a = address.getAddress();
        if (address instanceof Inet4Address) {
            return "v4:" + (a[0] & 0xff) + "." + (a[1] & 0xff);
        }
        return String.format("v6:%02x%02x:%02x%02x", a[0], a[1], a[2], a[3]);
    }

    /** Whether a connection from {@code address} gets a slot among the {@code connected} peers. */
    public <P extends Peer> Decision<P> admit(InetAddress address, Collection<P> connected) {
        if (!isLocal(address)) {
            String group = netgroup(address);
            int sameAddress = 0;
            int sameGroup = 0;
            for (P p : connected) {
                if (p.address().equals(address)) {
                    sameAddress++;
                }
                if (p.netgroup().equals(group)) {
                    sameGroup++;
                }
            }
            if (sameAddress >= slots.maxPerAddress()) {
                return new Decision.Refuse<>("address_limit");
            }
            if (sameGroup >= slots.maxPerNetgroup()) {
                return new Decision.Refuse<>("netgroup_limit");
            }
        }
        if (connected.size() < maxPeers) {
            return new Decision.Accept<>();
        }
        Optional<P> victim = selectToEvict(connected);
        return victim.isPresent() ? new Decision.Evict<>(victim.get()) : new Decision.Refuse<>("full");
    }

    /**
     * Core's eviction: the peer to drop, or empty when every peer is protected. Works on a copy of
     * each peer's figures read once, as Core's {@code NodeEvictionCandidate} is: pings and requests
     * change them while it sorts, and a sort whose order changes under it may throw.
     */
    <P extends Peer> Optional<P> selectToEvict(Collection<P> connected) {
        List<Candidate<P>> candidates = new ArrayList<>(connected.size());
        for (P p : connected) {
            candidates.add(Candidate.of(p));
        }
        protectDistinctNetgroups(candidates);
        protect(candidates, Comparator.comparingLong(Candidate::minPingNanos), PROTECT_BY_PING, c -> true);
        protect(
                candidates,
                Comparator.comparingLong((Candidate<P> c) -> c.lastUsefulNanos())
                        .reversed(),
                PROTECT_BY_USEFULNESS,
                c -> c.lastUsefulNanos() != 0);
        protectByUptime(candidates);
        if (candidates.isEmpty()) {
            return Optional.empty();
        }
        Map<String, List<Candidate<P>>> groups = new HashMap<>();
        for (Candidate<P> c : candidates) {
            groups.computeIfAbsent(c.netgroup(), g -> new ArrayList<>()).add(c);
        }
        // The group with the most connections; among equals, the one whose youngest peer is youngest.
        List<Candidate<P>> largest = null;
        for (List<Candidate<P>> g : groups.values()) {
            if (largest == null
                    || g.size() > largest.size()
                    || (g.size() == largest.size()
                            && youngest(g).connectedNanos() - youngest(largest).connectedNanos() > 0)) {
                largest = g;
            }
        }
        return Optional.of(youngest(largest).peer());
    }

    /** What eviction reads of a peer, read once. */
    private record Candidate<P extends Peer>(
            P peer, boolean local, String netgroup, long connectedNanos, long minPingNanos, long lastUsefulNanos) {
        static <P extends Peer> Candidate<P> of(P p) {
            return new Candidate<>(
                    p, p.local(), p.netgroup(), p.connectedNanos(), p.minPingNanos(), p.lastUsefulNanos());
        }
    }

    private static <P extends Peer> Candidate<P> youngest(List<Candidate<P>> group) {
        Candidate<P> y = group.get(0);
        for (Candidate<P> c : group) {
            if (c.connectedNanos() - y.connectedNanos() > 0) {
                y = c;
            }
        }
        return y;
    }

    /** Keeps the longest-connected peer of each of the netgroups with the highest keyed hash. */
    private <P extends Peer> void protectDistinctNetgroups(List<Candidate<P>> candidates) {
        Map<String, Candidate<P>> oldestOfGroup = new HashMap<>();
        for (Candidate<P> c : candidates) {
            oldestOfGroup.merge(c.netgroup(), c, (a, b) -> b.connectedNanos() - a.connectedNanos() < 0 ? b : a);
        }
        List<String> groups = new ArrayList<>(oldestOfGroup.keySet());
        groups.sort(Comparator.comparingLong((String g) -> keyedHash(g)).reversed());
        Set<Candidate<P>> keep = new HashSet<>();
        for (int i = 0; i < Math.min(PROTECT_BY_NETGROUP, groups.size()); i++) {
            keep.add(oldestOfGroup.get(groups.get(i)));
        }
        candidates.removeAll(keep);
    }

    /**
     * Core's {@code ProtectEvictionCandidatesByRatio}: half of the rest by longest uptime, of which
     * up to a quarter of the candidates are local peers (Core's disadvantaged networks: onion,
     * localhost), so peers behind Tor are not all evicted for their higher ping.
     */
    private static <P extends Peer> void protectByUptime(List<Candidate<P>> candidates) {
        int total = candidates.size() / 2;
        Comparator<Candidate<P>> oldestFirst = Comparator.comparingLong(Candidate::connectedNanos);
        int beforeLocal = candidates.size();
        protect(candidates, oldestFirst, candidates.size() / 4, Candidate::local);
        int protectedLocal = beforeLocal - candidates.size();
        protect(candidates, oldestFirst, total - protectedLocal, c -> true);
    }

    /** Removes (protects) the first {@code k} candidates in {@code order} that satisfy {@code eligible}. */
    private static <P extends Peer> void protect(
            List<Candidate<P>> candidates, Comparator<Candidate<P>> order, int k, Predicate<Candidate<P>> eligible) {
        List<Candidate<P>> sorted = new ArrayList<>(candidates);
        sorted.sort(order);
        int kept = 0;
        for (Candidate<P> c : sorted) {
            if (kept >= k) {
                break;
            }
            if (eligible.test(c)) {
                candidates.remove(c);
                kept++;
            }
        }
    }

    private long keyedHash(String group) {
        long z = secret ^ group.hashCode() * 0x9E3779B97F4A7C15L; // SplitMix64's finaliser
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
