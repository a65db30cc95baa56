package org.blockfilter.filters.p2p.v2;

import java.io.IOException;

/**
 * The peer broke BIP 324: what went wrong as a short metric-friendly reason ({@code
 * v2_no_terminator}, {@code v2_decrypt_failed}, {@code v2_oversized}, {@code v2_truncated_key},
 * {@code v2_not_supported}) and a sentence. After one of these the connection cannot continue.
 * Immutable.
 */
public final class V2Exception extends IOException {
    private static final long serialVersionUID = 1L;

    /** The initiator's peer closed the connection before sending its key: a v1-only peer. */
    public static final String NOT_SUPPORTED = "v2_not_supported";

    private final String reason;

    /** A protocol violation with its reason code, a sentence for logs, and the exception that revealed it. */
    public V2Exception(String reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    /** A protocol violation with its reason code and a sentence for logs. */
    public V2Exception(String reason, String message) {
        this(reason, message, null);
    }

    /** The short reason code, such as {@code v2_decrypt_failed}; suitable as a metric label. */
    public String reason() {
        return reason;
    }
}
