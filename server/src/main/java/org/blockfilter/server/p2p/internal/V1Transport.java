package org.blockfilter.server.p2p.internal;

import java.io.IOException;
import java.io.OutputStream;
import org.blockfilter.filters.p2p.MessageFrame;

/** The v1 transport: 24-byte frames read by a {@link FrameReader}, written by {@link MessageFrame}. */
final class V1Transport implements Transport {
    private final FrameReader reader;
    private final OutputStream out;
    private final byte[] magic;

    V1Transport(FrameReader reader, OutputStream out, byte[] magic) {
        this.reader = reader;
        this.out = out;
        this.magic = magic;
    }

    @Override
    public FrameReader.Frame next() throws IOException {
        return reader.next();
    }

    @Override
    public void write(String command, byte[] payload) throws IOException {
        out.write(MessageFrame.encode(magic, command, payload));
        out.flush();
    }

    @Override
    public int wireLength(String command, int payloadLength) {
        return MessageFrame.HEADER_LENGTH + payloadLength;
    }

    @Override
    public String name() {
        return "v1";
    }
}
