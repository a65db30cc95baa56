package org.blockfilter.server;

import java.util.Objects;
import org.blockfilter.regtest.embedded.DemoFaucet;
import org.blockfilter.regtest.embedded.RejectedException;
import org.blockfilter.server.http.Faucet;

/** The embedded demo's {@link DemoFaucet} behind the REST layer's {@link Faucet}. Thread-safe as the faucet is. */
final class DemoFaucetAdapter implements Faucet {
    private final DemoFaucet faucet;

    DemoFaucetAdapter(DemoFaucet faucet) {
        this.faucet = Objects.requireNonNull(faucet, "faucet");
    }

    @Override
    public Payment pay(String address, String amount) {
        try {
            DemoFaucet.Payment p = faucet.pay(address, amount);
            return new Payment(
                    p.txid().toString(),
                    p.height(),
                    p.amount().toPlainString(),
                    p.address().toString());
        } catch (DemoFaucet.RefusedException e) {
            String code = switch (e.kind()) {
                case BAD_ADDRESS -> "bad_address";
                case WRONG_NETWORK -> "wrong_network";
                case BAD_AMOUNT -> "bad_amount";
                case INSUFFICIENT_FUNDS -> "insufficient_funds";
            };
            throw new RefusedException(code, e.getMessage());
        } catch (RejectedException e) {
            throw new RefusedException("tx_rejected", "the node refused the faucet's payment: " + e.getMessage());
        }
    }
}
