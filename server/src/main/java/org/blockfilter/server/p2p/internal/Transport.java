package org.blockfilter.server.p2p.internal;

import java.io.IOException;

/**
 * The byte stream of one peer connection: messages in ({@link #next}) and out ({@link #write}),
 * v1 frames or BIP 324 packets. Chosen once per connection by {@link Transports#accept}. One
 * reader thread calls {@link #next} and one writer thread calls {@link #write}; the two share no
 * state.
 */
public interface Transport {
    /** The next message; EOFException when the peer closed the connection between messages. */
    FrameReader.Frame next() throws IOException;

    /** Writes and flushes one message. */
    void write(String command, byte[] payload) throws IOException;

    /** Bytes a message with this command and payload takes on the wire. */
    int wireLength(String command, int payloadLength);

    /** {@code "v1"} or {@code "v2"} (the sessions metric's label). */
    String name();
}
