package org.blockfilter.filters.p2p;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.blockfilter.filters.Bip157;
import org.blockfilter.filters.wire.WireFormatException;
import org.blockfilter.filters.wire.WireReader;
import org.blockfilter.filters.wire.WireWriter;

/**
 * Payload encodings of {@link Message}s, and their strict decoding: counts above the protocol
 * and BIP 157 maxima, non-canonical CompactSizes, short or trailing bytes, headers with a
 * transaction count, and blocks or transactions that bitcoinj cannot parse exactly are {@link
 * WireFormatException}s naming the field and offset. Stateless.
 */
public final class MessageCodec {
    private MessageCodec() {}

    static final int MAX_USER_AGENT = 256;
    private static final int MAX_REJECT_TEXT = 1024;

    /** Largest payload we accept for a command; anything larger is refused before it is read. */
    public static int maxPayload(String command) {
        return switch (command) {
            case "version" -> 4 + 8 + 8 + 26 + 26 + 8 + 3 + MAX_USER_AGENT + 4 + 1 + 64;
            case "verack", "sendheaders", "wtxidrelay", "sendaddrv2", "getaddr", "mempool" -> 0;
            case "ping", "pong", "feefilter" -> 8;
            case "cfheaders" -> 1 + 32 + 32 + 3 + Bip157.MAX_CFHEADERS * ProtocolLimits.HASH_BYTES;
            case "headers" -> 3 + ProtocolLimits.MAX_HEADERS_RESULTS * (ProtocolLimits.HEADER_BYTES + 1);
            case "getcfilters", "getcfheaders" -> 1 + 4 + 32;
            case "getcfcheckpt" -> 1 + 32;
            default -> ProtocolLimits.MAX_PROTOCOL_MESSAGE_LENGTH;
        };
    }

    /** Encodes a message's payload (without the 24-byte message header, which the transport adds). */
    public static byte[] encode(Message m) {
        WireWriter w = new WireWriter();
        if (m instanceof Message.Version v) {
            w.u32le(v.protocolVersion()).u64le(v.services()).u64le(v.timestamp());
            netAddr(w, v.receiverServices());
            netAddr(w, v.services());
            w.u64le(v.nonce())
                    .varBytes(v.userAgent().getBytes(StandardCharsets.US_ASCII))
                    .u32le(v.startHeight())
                    .u8(v.relay() ? 1 : 0);
        } else if (m instanceof Message.Verack) {
            // no payload
        } else if (m instanceof Message.Ping p) {
            w.u64le(p.nonce());
        } else if (m instanceof Message.Pong p) {
            w.u64le(p.nonce());
        } else if (m instanceof Message.GetHeaders g) {
            w.u32le(g.protocolVersion()).compactSize(g.locator().size());
            g.locator().forEach(w::hash);
            w.hash(g.stopHash());
        } else if (m instanceof Message.Headers h) {
            w.compactSize(h.headers().size());
            for (byte[] header : h.headers()) {
                w.bytes(header).u8(0);
            }
        } else if (m instanceof Message.GetData g) {
            inv(w, g.items());
        } else if (m instanceof Message.NotFound n) {
            inv(w, n.items());
        } else if (m instanceof Message.Inv i) {
            inv(w, i.items());
        } else if (m instanceof Message.BlockMessage b) {
            w.bytes(b.raw());
        } else if (m instanceof Message.Tx t) {
            w.bytes(t.raw());
        } else if (m instanceof Message.Reject r) {
            w.varBytes(r.rejectedCommand().getBytes(StandardCharsets.US_ASCII))
                    .u8(r.code())
                    .varBytes(r.reason().getBytes(StandardCharsets.UTF_8));
            if (r.data() != null) {
                w.hash(r.data());
            }
        } else if (m instanceof Message.GetCFilters g) {
            w.u8(g.filterType()).u32le(g.startHeight()).hash(g.stopHash());
        } else if (m instanceof Message.CFilter c) {
            w.u8(c.filterType()).hash(c.blockHash()).varBytes(c.filter());
        } else if (m instanceof Message.GetCFHeaders g) {
            w.u8(g.filterType()).u32le(g.startHeight()).hash(g.stopHash());
        } else if (m instanceof Message.CFHeaders c) {
            w.u8(c.filterType())
                    .hash(c.stopHash())
                    .hash(c.previousHeader())
                    .compactSize(c.filterHashes().size());
            c.filterHashes().forEach(w::hash);
        } else if (m instanceof Message.GetCFCheckpt g) {
            w.u8(g.filterType()).hash(g.stopHash());
        } else if (m instanceof Message.CFCheckpt c) {
            w.u8(c.filterType()).hash(c.stopHash()).compactSize(c.headers().size());
            c.headers().forEach(w::hash);
        } else if (m instanceof Message.Unknown u) {
            throw new IllegalArgumentException("cannot encode unknown command " + u.command());
        }
        return w.toByteArray();
    }

    private static void netAddr(WireWriter w, long services) {
        byte[] ipv4Mapped = new byte[16];
        ipv4Mapped[10] = (byte) 0xff;
        ipv4Mapped[11] = (byte) 0xff;
        ipv4Mapped[12] = 127;
        ipv4Mapped[15] = 1;
        w.u64le(services).bytes(ipv4Mapped).u16be(0);
    }

    private static void inv(WireWriter w, List<Message.InvItem> items) {
        w.compactSize(items.size());
        for (Message.InvItem i : items) {
            w.u32le(i.type()).hash(i.hash());
        }
    }

    /**
     * Decodes the payload of a command strictly; an unknown command decodes as {@link Message.Unknown}. Throws {@link
     * WireFormatException} naming the field and offset on any malformed payload.
     */
    public static Message decode(String command, byte[] payload) {
        WireReader r = new WireReader(payload);
        Message m = switch (command) {
            case "version" -> version(r);
            case "verack" -> new Message.Verack();
            case "ping" -> new Message.Ping(r.u64le("nonce"));
            case "pong" -> new Message.Pong(r.u64le("nonce"));
            case "getheaders" -> {
                int version = r.i32le("version");
                int n = r.count("locator count", ProtocolLimits.MAX_DECODED_LOCATOR, ProtocolLimits.HASH_BYTES);
                List<Sha256Hash> locator = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    locator.add(r.hash("locator[" + i + "]"));
                }
                yield new Message.GetHeaders(version, locator, r.hash("stopHash"));
            }
            case "headers" -> {
                int n = r.count("headers count", ProtocolLimits.MAX_HEADERS_RESULTS, ProtocolLimits.HEADER_BYTES + 1);
                List<byte[]> headers = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    headers.add(r.bytes("headers[" + i + "]", ProtocolLimits.HEADER_BYTES));
                    if (r.compactSize("headers[" + i + "].txCount", 0) != 0) {
                        throw r.error("headers[" + i + "].txCount", null, "not zero");
                    }
                }
                yield new Message.Headers(headers);
            }
            case "getdata" -> new Message.GetData(invItems(r));
            case "notfound" -> new Message.NotFound(invItems(r));
            case "inv" -> new Message.Inv(invItems(r));
            case "block" -> new Message.BlockMessage(checkParses(payload, true));
            case "tx" -> new Message.Tx(checkParses(payload, false));
            case "reject" -> {
                String rejected = ascii(r.varBytes("message", 12));
                int code = r.u8("ccode");
                String reason = new String(r.varBytes("reason", MAX_REJECT_TEXT), StandardCharsets.UTF_8);
                Sha256Hash data = r.remaining() >= ProtocolLimits.HASH_BYTES ? r.hash("data") : null;
                yield new Message.Reject(rejected, code, reason, data);
            }
            case "getcfilters" ->
                new Message.GetCFilters(r.u8("filterType"), r.u32le("startHeight"), r.hash("stopHash"));
            case "cfilter" ->
                new Message.CFilter(
                        r.u8("filterType"),
                        r.hash("blockHash"),
                        r.varBytes("filter", ProtocolLimits.MAX_PROTOCOL_MESSAGE_LENGTH));
            case "getcfheaders" ->
                new Message.GetCFHeaders(r.u8("filterType"), r.u32le("startHeight"), r.hash("stopHash"));
            case "cfheaders" -> {
                int type = r.u8("filterType");
                Sha256Hash stop = r.hash("stopHash");
                Sha256Hash prev = r.hash("previousFilterHeader");
                int n = r.count("filterHashes count", Bip157.MAX_CFHEADERS, ProtocolLimits.HASH_BYTES);
                List<Sha256Hash> hashes = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    hashes.add(r.hash("filterHashes[" + i + "]"));
                }
                yield new Message.CFHeaders(type, stop, prev, hashes);
            }
            case "getcfcheckpt" -> new Message.GetCFCheckpt(r.u8("filterType"), r.hash("stopHash"));
            case "cfcheckpt" -> {
                int type = r.u8("filterType");
                Sha256Hash stop = r.hash("stopHash");
                int n = r.count("filterHeaders count", ProtocolLimits.MAX_CHECKPOINTS, ProtocolLimits.HASH_BYTES);
                List<Sha256Hash> headers = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    headers.add(r.hash("filterHeaders[" + i + "]"));
                }
                yield new Message.CFCheckpt(type, stop, headers);
            }
            default -> {
                r.bytes("payload", payload.length);
                yield new Message.Unknown(command, payload.length);
            }
        };
        if (!(m instanceof Message.Version) && !(m instanceof Message.BlockMessage) && !(m instanceof Message.Tx)) {
            r.end(command);
        }
        return m;
    }

    /** Extra bytes after {@code relay} are tolerated: later protocol versions may append fields. */
    private static Message.Version version(WireReader r) {
        int protocol = r.i32le("version");
        long services = r.u64le("services");
        long timestamp = r.u64le("timestamp");
        long receiverServices = r.u64le("addr_recv.services");
        r.bytes("addr_recv.ip", 16);
        r.u16be("addr_recv.port");
        r.u64le("addr_from.services");
        r.bytes("addr_from.ip", 16);
        r.u16be("addr_from.port");
        long nonce = r.u64le("nonce");
        String agent = ascii(r.varBytes("user_agent", MAX_USER_AGENT));
        int start = r.i32le("start_height");
        boolean relay = r.remaining() == 0 || r.u8("relay") != 0;
        return new Message.Version(protocol, services, timestamp, receiverServices, nonce, agent, start, relay);
    }

    private static List<Message.InvItem> invItems(WireReader r) {
        int n = r.count("inv count", ProtocolLimits.MAX_INV_SZ, 36);
        List<Message.InvItem> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            items.add(new Message.InvItem(r.i32le("inv[" + i + "].type"), r.hash("inv[" + i + "].hash")));
        }
        return items;
    }

    private static String ascii(byte[] b) {
        for (byte c : b) {
            if (c < 0x20 || c > 0x7e) {
                return new String(b, StandardCharsets.ISO_8859_1).replaceAll("[^\\x20-\\x7e]", "?");
            }
        }
        return new String(b, StandardCharsets.US_ASCII);
    }

    /** Blocks and transactions must parse exactly, with no bytes left over. */
    private static byte[] checkParses(byte[] payload, boolean block) {
        String what = block ? "block" : "tx";
        ByteBuffer buf = ByteBuffer.wrap(payload);
        try {
            if (block) {
                Block.read(buf);
            } else {
                Transaction.read(buf);
            }
        } catch (RuntimeException e) {
            // bitcoinj signals bad bytes with several unchecked types; all mean "malformed".
            throw new WireFormatException(what, null, buf.position(), "does not parse: " + e);
        }
        if (buf.hasRemaining()) {
            throw new WireFormatException(what, null, buf.position(), buf.remaining() + " trailing bytes");
        }
        return Arrays.copyOf(payload, payload.length);
    }
}
