package org.blockfilter.wallet.descriptor;

import org.blockfilter.wallet.keys.KeyFormatException;

/** A descriptor that does not parse or cannot be used as asked; the message names what is wrong and where. */
public final class DescriptorException extends KeyFormatException {
    /** A descriptor that does not parse or is not supported; the message names the part and why. */
    public DescriptorException(String message) {
        super(message, null);
    }

    /** As {@link #DescriptorException(String)}, with the exception that revealed the problem. */
    public DescriptorException(String message, Throwable cause) {
        super(message, cause);
    }
}
