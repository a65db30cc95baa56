package org.blockfilter.server.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class NetRangeTest {

    @Test
    void containsTheAddressesOfItsPrefix() throws Exception {
        NetRange r = NetRange.parse("10.1.0.0/16");
        assertTrue(r.contains(InetAddress.getByName("10.1.255.3")));
        assertFalse(r.contains(InetAddress.getByName("10.2.0.1")));
        assertFalse(r.contains(InetAddress.getByName("::1")));
        assertTrue(NetRange.parse("fd00::/8").contains(InetAddress.getByName("fd12::5")));
        assertTrue(NetRange.parse("192.168.1.7").contains(InetAddress.getByName("192.168.1.7")));
        assertFalse(NetRange.parse("192.168.1.7").contains(InetAddress.getByName("192.168.1.8")));
        assertTrue(NetRange.parse("0.0.0.0/0").contains(InetAddress.getByName("8.8.8.8")));
        assertEquals("10.1.0.0/16", NetRange.parse("10.1.2.3/16").toString(), "host bits are cleared");
    }

    @Test
    void badRangesAreNamed() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NetRange.parse("example.com"))
                .getMessage()
                .contains("'example.com'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NetRange.parse("10.0.0.0/33"))
                .getMessage()
                .contains("0..32"));
        assertThrows(IllegalArgumentException.class, () -> NetRange.parse("10.0.0.0/x"));
        assertThrows(IllegalArgumentException.class, () -> NetRange.parse("300.1.1.1"));
    }
}
