package org.blockfilter.regtest.embedded.internal;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.ProtocolException;
import org.bitcoinj.core.Transaction;
import org.blockfilter.regtest.embedded.RejectedException;

/** Strict decoding of wire transactions and blocks: trailing bytes are an error. Stateless. */
public final class StrictWireDecoder {
    private StrictWireDecoder() {}

    /** @throws RejectedException (code -22, Core's message) if the bytes are not exactly one transaction */
    public static Transaction transaction(byte[] raw) {
        String failure;
        try {
            ByteBuffer buf = ByteBuffer.wrap(raw);
            Transaction tx = Transaction.read(buf);
            if (!buf.hasRemaining()) {
                return tx;
            }
            failure = buf.remaining() + " trailing bytes";
        } catch (ProtocolException | BufferUnderflowException | IllegalArgumentException | IllegalStateException e) {
            failure = String.valueOf(e.getMessage());
        }
        throw new RejectedException(
                "TX decode failed. Make sure the tx has at least one input.",
                failure,
                RejectedException.DESERIALIZATION_ERROR);
    }

    /** @throws RejectedException (code -22, Core's message) if the bytes are not exactly one block */
    public static Block block(byte[] raw) {
        String failure;
        try {
            ByteBuffer buf = ByteBuffer.wrap(raw);
            Block block = Block.read(buf);
            if (!buf.hasRemaining()) {
                return block;
            }
            failure = buf.remaining() + " trailing bytes";
        } catch (ProtocolException | BufferUnderflowException | IllegalArgumentException | IllegalStateException e) {
            failure = String.valueOf(e.getMessage());
        }
        throw new RejectedException("Block decode failed", failure, RejectedException.DESERIALIZATION_ERROR);
    }
}
