package org.blockfilter.server.p2p.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.blockfilter.server.p2p.NetRange;
import org.blockfilter.server.p2p.P2pConfig;
import org.junit.jupiter.api.Test;

class InboundSlotsTest {
    private static final P2pConfig.Slots SLOTS = new P2pConfig.Slots(2, 3, NetRange.parseAll("127.0.0.0/8"));

    private record TestPeer(
            InetAddress address,
            boolean local,
            String netgroup,
            long connectedNanos,
            long minPingNanos,
            long lastUsefulNanos)
            implements InboundSlots.Peer {}

    private static TestPeer peer(InboundSlots slots, String address, long connected, long ping, long useful) {
        try {
            InetAddress a = InetAddress.getByName(address);
            return new TestPeer(a, slots.isLocal(a), slots.netgroup(a), connected, ping, useful);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static InetAddress at(String a) throws UnknownHostException {
        return InetAddress.getByName(a);
    }

    @Test
    void netgroupsAreSixteenBitsOfIpv4AndThirtyTwoOfIpv6AndOneForLocalPeers() throws Exception {
        InboundSlots slots = new InboundSlots(SLOTS, 10, 1);
        assertEquals("v4:10.1", slots.netgroup(at("10.1.200.3")));
        assertEquals("v4:10.1", slots.netgroup(at("::ffff:10.1.0.1")), "an IPv4-mapped address is IPv4");
        assertEquals("v6:2001:0db8", slots.netgroup(at("2001:db8:ffff::1")));
        assertEquals("local", slots.netgroup(at("127.9.9.9")));
    }

    @Test
    void oneAddressAndOneNetgroupGetOnlyTheirShare() throws Exception {
        InboundSlots slots = new InboundSlots(SLOTS, 10, 1);
        List<TestPeer> peers =
                new ArrayList<>(List.of(peer(slots, "10.1.0.1", 1, 5, 0), peer(slots, "10.1.0.1", 2, 5, 0)));
        assertEquals(new InboundSlots.Decision.Refuse<TestPeer>("address_limit"), slots.admit(at("10.1.0.1"), peers));
        peers.add(peer(slots, "10.1.0.2", 3, 5, 0));
        assertEquals(new InboundSlots.Decision.Refuse<TestPeer>("netgroup_limit"), slots.admit(at("10.1.9.9"), peers));
        assertInstanceOf(InboundSlots.Decision.Accept.class, slots.admit(at("10.2.0.1"), peers));
        List<TestPeer> local = List.of(peer(slots, "127.0.0.1", 1, 5, 0), peer(slots, "127.0.0.1", 2, 5, 0));
        assertInstanceOf(
                InboundSlots.Decision.Accept.class, slots.admit(at("127.0.0.1"), local), "local peers have no limit");
    }

    @Test
    void whenFullTheYoungestIdlePeerOfTheLargestNetgroupIsEvicted() throws Exception {
        P2pConfig.Slots wide = new P2pConfig.Slots(100, 100, List.of());
        InboundSlots slots = new InboundSlots(wide, 40, 7);
        List<TestPeer> peers = new ArrayList<>();
        // 30 attackers in one /16, idle, slow pings; 10 honest peers each on its own /16.
        for (int i = 0; i < 30; i++) {
            peers.add(peer(slots, "10.9.0." + (i + 1), 1_000 + i, 9_000_000, 0));
        }
        TestPeer honestUseful = peer(slots, "10.50.0.1", 2_000, 9_000_000, 5_000);
        peers.add(honestUseful);
        for (int i = 1; i < 10; i++) {
            peers.add(peer(slots, "10." + (100 + i) + ".0.1", 500 + i, 9_000_000, 0));
        }
        InboundSlots.Decision<TestPeer> d = slots.admit(at("10.200.0.1"), peers);
        TestPeer victim = ((InboundSlots.Decision.Evict<TestPeer>) d).victim();
        assertEquals("v4:10.9", victim.netgroup(), "evicted from the netgroup with the most connections");
        assertEquals(1_029, victim.connectedNanos(), "its youngest");
    }

    @Test
    void usefulFastAndLongConnectedPeersAreProtected() throws Exception {
        P2pConfig.Slots wide = new P2pConfig.Slots(100, 100, List.of());
        InboundSlots slots = new InboundSlots(wide, 64, 3);
        List<TestPeer> peers = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            peers.add(peer(slots, "10.9.0." + (i + 1), 10_000 + i, 9_000_000, 0));
        }
        // The youngest peers are the candidates; make the three youngest useful, fast, or both idle.
        peers.set(63, peer(slots, "10.9.0.64", 10_063, 9_000_000, 77));
        peers.set(62, peer(slots, "10.9.0.63", 10_062, 1, 0));
        TestPeer victim = ((InboundSlots.Decision.Evict<TestPeer>) slots.admit(at("10.1.0.1"), peers)).victim();
        assertEquals(10_061, victim.connectedNanos(), "the useful and the fastest are kept; the next youngest goes");
        for (TestPeer p : peers) {
            assertTrue(p.connectedNanos() < 10_032 ? p != victim : true, "the older half is kept");
        }
    }

    @Test
    void whenEveryPeerIsProtectedTheNewConnectionIsRefused() throws Exception {
        InboundSlots slots = new InboundSlots(new P2pConfig.Slots(10, 10, List.of()), 3, 1);
        List<TestPeer> peers = List.of(
                peer(slots, "10.1.0.1", 1, 5, 0), peer(slots, "10.2.0.1", 2, 5, 0), peer(slots, "10.3.0.1", 3, 5, 0));
        assertEquals(new InboundSlots.Decision.Refuse<TestPeer>("full"), slots.admit(at("10.4.0.1"), peers));
    }

    /**
     * A live peer whose ping and last request change at every read, as pongs and requests change
     * them on other threads while the listener chooses whom to evict.
     */
    private record ChangingPeer(InetAddress address, String netgroup, long connectedNanos, Random changes)
            implements InboundSlots.Peer {
        @Override
        public boolean local() {
            return false;
        }

        @Override
        public long minPingNanos() {
            synchronized (changes) {
                return changes.nextBoolean() ? Long.MAX_VALUE : 1 + changes.nextInt(1_000_000);
            }
        }

        @Override
        public long lastUsefulNanos() {
            synchronized (changes) {
                return changes.nextBoolean() ? 0 : 1 + changes.nextInt(1_000_000);
            }
        }
    }

    @Test
    void figuresThatChangeWhileEvictionSortsNeitherBreakItNorMoveTheVictimOutOfTheLargestNetgroup() throws Exception {
        P2pConfig.Slots wide = new P2pConfig.Slots(100, 100, List.of());
        InboundSlots slots = new InboundSlots(wide, 64, 5);
        Random changes = new Random(42);
        List<ChangingPeer> peers = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            InetAddress a = at("10.9.0." + (i + 1));
            peers.add(new ChangingPeer(a, slots.netgroup(a), 1_000 + i, changes));
        }
        for (int i = 0; i < 4; i++) {
            InetAddress a = at("10." + (20 + i) + ".0.1");
            peers.add(new ChangingPeer(a, slots.netgroup(a), 2_000 + i, changes));
        }
        // Each choice sorts the 64 peers three times; a sort whose order changes under it may throw.
        for (int round = 0; round < 200; round++) {
            InboundSlots.Decision<ChangingPeer> d = slots.admit(at("10.200.0.1"), peers);
            ChangingPeer victim = ((InboundSlots.Decision.Evict<ChangingPeer>) d).victim();
            assertEquals("v4:10.9", victim.netgroup(), "round " + round);
        }
    }
}
