package org.blockfilter.wallet.descriptor;

import org.blockfilter.wallet.keys.KeyFormatException;

/** A descriptor that does not parse or cannot be used as asked; the message names what is wrong and where. */
public final class DescriptorException extends KeyFormatException {
    public DescriptorException(String message) {
        super(message, null);
    }

    public DescriptorException(String message, Throwable cause) {
        super(message, cause);
    }
}
