package org.blockfilter.filters.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.params.RegTestParams;
import org.blockfilter.filters.wire.WireFormatException;
import org.blockfilter.filters.wire.WireWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class MessageCodecTest {
    private static final Sha256Hash H1 = Sha256Hash.of(new byte[] {1});
    private static final Sha256Hash H2 = Sha256Hash.of(new byte[] {2});

    static Stream<Message> everyMessage() {
        byte[] genesis = RegTestParams.get().getGenesisBlock().serialize();
        byte[] coinbase =
                RegTestParams.get().getGenesisBlock().getTransactions().get(0).serialize();
        return Stream.of(
                new Message.Version(70016, Message.NODE_WITNESS, 1_700_000_000L, 0, 42, "/test:1/", 7, false),
                new Message.Verack(),
                new Message.Ping(-5),
                new Message.Pong(Long.MAX_VALUE),
                new Message.GetHeaders(70016, List.of(H1, H2), Sha256Hash.ZERO_HASH),
                new Message.Headers(List.of(Arrays.copyOf(genesis, 80), new byte[80])),
                new Message.GetData(List.of(new Message.InvItem(Message.MSG_WITNESS_BLOCK, H1))),
                new Message.NotFound(List.of(new Message.InvItem(Message.MSG_TX, H2))),
                new Message.Inv(List.of()),
                new Message.BlockMessage(genesis),
                new Message.Tx(coinbase),
                new Message.Reject("tx", 0x12, "duplicate", H1),
                new Message.Reject("version", 0x11, "obsolete", null),
                new Message.GetCFilters(0, 1000, H1),
                new Message.CFilter(0, H1, new byte[] {1, 2, 3}),
                new Message.GetCFHeaders(0, 0, H2),
                new Message.CFHeaders(0, H1, H2, Collections.nCopies(2000, H1)),
                new Message.GetCFCheckpt(0, H1),
                new Message.CFCheckpt(0, H1, List.of(H1, H2)));
    }

    @ParameterizedTest
    @MethodSource("everyMessage")
    void everyMessageRoundTrips(Message m) {
        byte[] payload = MessageCodec.encode(m);
        Message decoded = MessageCodec.decode(m.command(), payload);
        assertEquals(m.getClass(), decoded.getClass());
        assertArrayEquals(payload, MessageCodec.encode(decoded));
        assertTrue(payload.length <= MessageCodec.maxPayload(m.command()), "payload within its own cap");
    }

    @Test
    void versionFieldsSurviveTheRoundTrip() {
        Message.Version v = new Message.Version(
                70016,
                Message.NODE_WITNESS | Message.NODE_COMPACT_FILTERS,
                1_700_000_000L,
                0,
                42,
                "/btcd:0.26/",
                1005,
                true);
        assertEquals(v, MessageCodec.decode("version", MessageCodec.encode(v)));
    }

    @Test
    void versionWithoutRelayFlagMeansRelay() {
        byte[] full = MessageCodec.encode(new Message.Version(70001, 1, 0, 0, 1, "", 0, false));
        Message.Version v = (Message.Version) MessageCodec.decode("version", Arrays.copyOf(full, full.length - 1));
        assertTrue(v.relay());
    }

    @Test
    void cfheadersWithMoreThan2000HashesAreRejected() {
        byte[] payload =
                new WireWriter().u8(0).hash(H1).hash(H2).compactSize(2001).toByteArray();
        WireFormatException e =
                assertThrows(WireFormatException.class, () -> MessageCodec.decode("cfheaders", payload));
        assertEquals("filterHashes count", e.field());
        assertEquals(65, e.offset());
    }

    @Test
    void cfheadersCountBeyondThePayloadIsRejected() {
        byte[] payload =
                new WireWriter().u8(0).hash(H1).hash(H2).compactSize(3).hash(H1).toByteArray();
        assertThrows(WireFormatException.class, () -> MessageCodec.decode("cfheaders", payload));
    }

    @Test
    void cfilterWhoseLengthRunsPastTheEndIsRejected() {
        byte[] payload = new WireWriter()
                .u8(0)
                .hash(H1)
                .compactSize(5)
                .bytes(new byte[4])
                .toByteArray();
        WireFormatException e = assertThrows(WireFormatException.class, () -> MessageCodec.decode("cfilter", payload));
        assertEquals("filter", e.field());
    }

    @Test
    void cfcheckptWithNonCanonicalCountIsRejected() {
        byte[] payload = new WireWriter()
                .u8(0)
                .hash(H1)
                .u8(0xfd)
                .u8(2)
                .u8(0)
                .hash(H1)
                .hash(H2)
                .toByteArray();
        WireFormatException e =
                assertThrows(WireFormatException.class, () -> MessageCodec.decode("cfcheckpt", payload));
        assertTrue(e.getMessage().contains("non-canonical"), e.getMessage());
    }

    @Test
    void headersWithATransactionCountAreRejected() {
        byte[] payload =
                new WireWriter().compactSize(1).bytes(new byte[80]).u8(1).toByteArray();
        WireFormatException e = assertThrows(WireFormatException.class, () -> MessageCodec.decode("headers", payload));
        assertEquals("headers[0].txCount", e.field());
    }

    @Test
    void headersCountAbove2000IsRejected() {
        byte[] payload = new WireWriter().compactSize(2001).toByteArray();
        assertThrows(WireFormatException.class, () -> MessageCodec.decode("headers", payload));
    }

    @Test
    void invCountAboveTheProtocolMaximumIsRejected() {
        byte[] payload =
                new WireWriter().compactSize(ProtocolLimits.MAX_INV_SZ + 1).toByteArray();
        assertThrows(WireFormatException.class, () -> MessageCodec.decode("notfound", payload));
    }

    @Test
    void trailingBytesAreRejected() {
        byte[] payload = new WireWriter().u64le(1).u8(0).toByteArray();
        WireFormatException e = assertThrows(WireFormatException.class, () -> MessageCodec.decode("pong", payload));
        assertTrue(e.getMessage().contains("1 trailing bytes"), e.getMessage());
    }

    @Test
    void blockThatDoesNotParseIsRejected() {
        byte[] genesis = RegTestParams.get().getGenesisBlock().serialize();
        assertThrows(
                WireFormatException.class,
                () -> MessageCodec.decode("block", Arrays.copyOf(genesis, genesis.length - 1)));
        assertThrows(
                WireFormatException.class,
                () -> MessageCodec.decode("block", Arrays.copyOf(genesis, genesis.length + 1)));
    }

    @Test
    void everyUint32StartHeightDecodes() {
        // Core reads start_height as a uint32 and judges it against the stop height; so does our server.
        byte[] payload = new WireWriter().u8(0).u32le(0xFFFF_FFFFL).hash(H1).toByteArray();
        assertEquals(new Message.GetCFilters(0, 0xFFFF_FFFFL, H1), MessageCodec.decode("getcfilters", payload));
        assertEquals(
                new Message.GetCFHeaders(0, 0x8000_0000L, H1),
                MessageCodec.decode(
                        "getcfheaders",
                        new WireWriter().u8(0).u32le(0x8000_0000L).hash(H1).toByteArray()));
    }

    @Test
    void unknownCommandsAreReadAndIgnored() {
        Message m = MessageCodec.decode("sendcmpct", new byte[9]);
        assertInstanceOf(Message.Unknown.class, m);
        assertEquals(9, ((Message.Unknown) m).length());
    }

    @Test
    void randomPayloadsNeverEscapeAsAnythingButMalformedData() {
        Random random = new Random(11);
        List<String> commands = List.of(
                "version",
                "ping",
                "headers",
                "inv",
                "notfound",
                "reject",
                "cfilter",
                "cfheaders",
                "cfcheckpt",
                "getcfilters",
                "block",
                "tx");
        int accepted = 0;
        for (int i = 0; i < 2000; i++) {
            byte[] payload = new byte[random.nextInt(150)];
            random.nextBytes(payload);
            for (String c : commands) {
                try {
                    MessageCodec.decode(c, payload);
                    accepted++;
                } catch (WireFormatException expected) {
                    assertTrue(expected.offset() >= 0 && expected.offset() <= payload.length);
                }
            }
        }
        assertFalse(accepted > 2000 * commands.size() / 2, "random bytes should mostly be rejected");
    }
}
