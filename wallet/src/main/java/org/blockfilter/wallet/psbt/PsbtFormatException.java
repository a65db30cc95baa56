package org.blockfilter.wallet.psbt;

/**
 * A PSBT that does not decode, or that breaks a rule of BIP 174/371. The message names the map
 * (global, input i, output i), the field and the byte offset where the problem was found.
 */
public final class PsbtFormatException extends IllegalArgumentException {
    private final int offset;

    /** A broken PSBT: what is wrong and the byte offset where it was found. */
    public PsbtFormatException(String message, int offset) {
        super(message + " (at byte " + offset + ")");
        this.offset = offset;
    }

    /** Offset in the PSBT's bytes (after Base64 decoding) where decoding stopped. */
    public int offset() {
        return offset;
    }
}
