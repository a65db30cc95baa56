package org.blockfilter.server.p2p.internal;

import java.io.IOException;
import java.io.OutputStream;
import org.blockfilter.filters.p2p.MessageCodec;
import org.blockfilter.filters.p2p.v2.V2Exception;
import org.blockfilter.filters.p2p.v2.V2Transport;
import org.blockfilter.filters.wire.WireFormatException;

/**
 * BIP 324 on the listener: {@link V2Transport}'s messages as frames, with the v1 listener's
 * per-command payload caps (checked after the packet authenticated; the packet size itself is
 * capped before it is read). A BIP 324 failure (no terminator, a packet that does not
 * authenticate, an oversized packet) is a disconnect without ban points, as Core; an
 * authenticated message over its command's cap or with a malformed type is banned like its v1
 * counterpart.
 */
final class V2ServerTransport implements Transport {
    private final V2Transport transport;
    private final OutputStream out;

    V2ServerTransport(V2Transport transport, OutputStream out) {
        this.transport = transport;
        this.out = out;
    }

    @Override
    public FrameReader.Frame next() throws IOException {
        V2Transport.Received r;
        try {
            r = transport.read();
        } catch (V2Exception e) {
            throw Violation.disconnect(e.reason(), e.getMessage());
        } catch (WireFormatException e) {
            throw Violation.ban("bad_command", e.getMessage());
        }
        int cap = MessageCodec.maxPayload(r.command());
        if (r.payload().length > cap) {
            throw Violation.ban(
                    "oversized", r.command() + " payload of " + r.payload().length + " bytes exceeds " + cap);
        }
        return new FrameReader.Frame(r.command(), r.payload(), true);
    }

    @Override
    public void write(String command, byte[] payload) throws IOException {
        transport.write(command, payload);
        out.flush();
    }

    @Override
    public int wireLength(String command, int payloadLength) {
        return V2Transport.wireLength(command, payloadLength);
    }

    @Override
    public String name() {
        return "v2";
    }
}
