package org.blockfilter.regtest.embedded.internal;

/** A JSON-RPC error with Bitcoin Core's code and message; the server turns it into the error object. */
final class RpcError extends RuntimeException {
    static final int MISC_ERROR = -1;
    static final int TYPE_ERROR = -3;
    static final int INVALID_ADDRESS_OR_KEY = -5;
    static final int INVALID_PARAMETER = -8;
    static final int DESERIALIZATION_ERROR = -22;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    static final int PARSE_ERROR = -32700;

    private final int code;

    RpcError(int code, String message) {
        super(message);
        this.code = code;
    }

    int code() {
        return code;
    }
}
