package org.blockfilter.regtest.embedded;

/**
 * The embedded node refused a transaction or a block. {@link #reason()} is Bitcoin Core's
 * reject reason (e.g. {@code bad-txns-inputs-missingorspent}, {@code txn-mempool-conflict},
 * {@code high-hash}) and {@link #rpcCode()} the JSON-RPC error code Core's
 * {@code sendrawtransaction} answers with (-22, -25, -26, -27), so the RPC server maps it in one place.
 */
public final class RejectedException extends RuntimeException {
    /** Core's RPC_VERIFY_ERROR / RPC_TRANSACTION_ERROR: e.g. missing inputs. */
    public static final int VERIFY_ERROR = -25;
    /** Core's RPC_VERIFY_REJECTED / RPC_TRANSACTION_REJECTED: the transaction broke a rule. */
    public static final int VERIFY_REJECTED = -26;
    /** Core's RPC_VERIFY_ALREADY_IN_CHAIN. */
    public static final int ALREADY_IN_CHAIN = -27;
    /** Core's RPC_DESERIALIZATION_ERROR: the bytes are not a transaction or block. */
    public static final int DESERIALIZATION_ERROR = -22;

    private final String reason;
    private final String detail;
    private final int rpcCode;

    public RejectedException(String reason, int rpcCode) {
        this(reason, null, rpcCode);
    }

    public RejectedException(String reason, String detail, int rpcCode) {
        super(detail == null ? reason : reason + ", " + detail);
        this.reason = reason;
        this.detail = detail;
        this.rpcCode = rpcCode;
    }

    /** Core's short reject reason, without details. */
    public String reason() {
        return reason;
    }

    /** What exactly failed, or null. */
    public String detail() {
        return detail;
    }

    public int rpcCode() {
        return rpcCode;
    }
}
