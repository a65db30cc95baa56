package org.blockfilter.server.http;

/**
 * The demo's faucet as the REST layer sees it ({@code POST /api/v1/demo/faucet}): pays an address
 * and mines the payment. Only the server's demo mode has one. Implementations are thread-safe.
 */
public interface Faucet {
    /** A payment made: txid (hex), the height of the block that confirmed it, the amount (BTC) and the address. */
    record Payment(String txid, int height, String amount, String address) {}

    /** The faucet refused: bad input or not enough coins; the message names what was wrong. */
    final class RefusedException extends RuntimeException {
        private final String code;

        /** @param code the JSON error code: bad_address, wrong_network, bad_amount or insufficient_funds */
        public RefusedException(String code, String message) {
            super(message);
            this.code = code;
        }

        public String code() {
            return code;
        }
    }

    /**
     * Pays {@code amount} BTC (decimal, e.g. {@code "1.5"}) to {@code address} and mines it.
     *
     * @throws RefusedException for bad input or an amount above what the faucet holds
     */
    Payment pay(String address, String amount);
}
