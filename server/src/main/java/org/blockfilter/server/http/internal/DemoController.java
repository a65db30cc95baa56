package org.blockfilter.server.http.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.blockfilter.server.http.Faucet;

/** Handler of the demo mode's faucet: IO and validation only; the payment is the {@link Faucet}'s. */
public final class DemoController {
    private final Optional<Faucet> faucet;

    public DemoController(Optional<Faucet> faucet) {
        this.faucet = faucet;
    }

    public void faucet(Context ctx) {
        Faucet f = faucet.orElseThrow(() -> new NotFoundException(
                "not_demo_mode",
                "the faucet exists only in demo mode (the server started without --node runs the embedded node)"));
        JsonNode body = ApiController.readJson(ctx.bodyAsBytes());
        String address = text(body, "address", false);
        String amount = text(body, "amount", true);
        Faucet.Payment p;
        try {
            p = f.pay(address, amount);
        } catch (Faucet.RefusedException e) {
            throw new BadRequestException(e.code(), e.getMessage());
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("txid", p.txid());
        answer.put("height", p.height());
        answer.put("amount", p.amount());
        answer.put("address", p.address());
        Http.send(ctx, 200, Http.JSON, Representations.json(answer), CachePolicy.NO_STORE);
    }

    /** A string field (or, with {@code numberToo}, a JSON number, read as written). */
    private static String text(JsonNode body, String field, boolean numberToo) {
        JsonNode value = body.get(field);
        if (value != null && value.isTextual()) {
            return value.asText();
        }
        if (value != null && numberToo && value.isNumber()) {
            return value.decimalValue().toPlainString();
        }
        throw new BadRequestException(
                "bad_json",
                "body must be a JSON object like {\"address\": \"bcrt1...\", \"amount\": \"1.5\"}; field \"" + field
                        + "\" is "
                        + (value == null
                                ? "missing"
                                : "a " + value.getNodeType().toString().toLowerCase()));
    }
}
