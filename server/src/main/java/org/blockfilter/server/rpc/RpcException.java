package org.blockfilter.server.rpc;

/**
 * A JSON-RPC call failed: either the node answered with an error object ({@link #code()} is
 * the node's error code), or the call could not be made or its answer could not be read
 * ({@link #code()} is {@link #TRANSPORT}).
 */
public final class RpcException extends RuntimeException {
    /** Code used when no error object came back (connection refused, timeout, HTTP error, bad JSON). */
    public static final int TRANSPORT = Integer.MIN_VALUE;
    /** Bitcoin Core's RPC_INVALID_ADDRESS_OR_KEY, also used for "block not found". */
    public static final int INVALID_ADDRESS_OR_KEY = -5;
    /** Bitcoin Core's RPC_INVALID_PARAMETER, e.g. "block height out of range". */
    public static final int INVALID_PARAMETER = -8;
    /** JSON-RPC 2.0 "Method not found", which Core and btcd both answer for a method they lack. */
    public static final int METHOD_NOT_FOUND = -32601;

    private final String method;
    private final int code;

    public RpcException(String method, int code, String message, Throwable cause) {
        super(method + ": " + message + (code == TRANSPORT ? "" : " (code " + code + ")"), cause);
        this.method = method;
        this.code = code;
    }

    public String method() {
        return method;
    }

    public int code() {
        return code;
    }

    public boolean isTransportError() {
        return code == TRANSPORT;
    }
}
