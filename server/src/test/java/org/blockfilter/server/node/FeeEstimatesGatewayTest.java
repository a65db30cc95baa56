package org.blockfilter.server.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.function.BiFunction;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.Http11OnlyNode;
import org.blockfilter.server.rpc.Http11OnlyNode.Answer;
import org.blockfilter.server.rpc.JsonRpcClient;
import org.junit.jupiter.api.Test;

/**
 * The fee estimates the server asks its node for, in each dialect: Bitcoin Core's estimatesmartfee
 * with and without fee history, btcd's estimatefee (btcd has no estimatesmartfee), a node with
 * neither, and answers of the wrong shape.
 */
class FeeEstimatesGatewayTest {
    private static FeeEstimates ask(BiFunction<String, JsonNode, Answer> script, List<Integer> targets)
            throws IOException {
        try (Http11OnlyNode node = new Http11OnlyNode(script)) {
            RpcNodeGateway gateway = new RpcNodeGateway(
                    new BitcoinRpc(JsonRpcClient.create(node.endpoint(), "u", "p", Duration.ofSeconds(20))));
            return gateway.feeEstimates(targets);
        }
    }

    @Test
    void coreWithFeeHistoryIsConvertedFromBtcPerKvbToSatPerVbyte() throws IOException {
        FeeEstimates f = ask(
                (m, p) -> m.equals("estimatesmartfee")
                        ? Answer.result("{\"feerate\":0.00012345,\"blocks\":"
                                + Math.max(2, p.path(0).asInt()) + "}")
                        : Http11OnlyNode.error(-32601, "Method not found"),
                List.of(1, 6));
        assertEquals(FeeEstimates.SMART, f.source());
        assertEquals(12.345, f.estimates().get(0).satPerVByte(), 1e-9);
        assertEquals(2, f.estimates().get(0).blocks());
        assertEquals(6, f.estimates().get(1).blocks());
        assertNull(f.estimates().get(1).error());
    }

    @Test
    void coreWithoutFeeHistoryGivesItsReasonNotAnError() throws IOException {
        FeeEstimates f = ask(
                (m, p) -> Answer.result("{\"errors\":[\"Insufficient data or no feerate found\"],\"blocks\":0}"),
                List.of(6));
        assertEquals(FeeEstimates.SMART, f.source());
        FeeEstimates.Estimate e = f.estimates().get(0);
        assertNull(e.satPerVByte());
        assertEquals(0, e.blocks());
        assertEquals("Insufficient data or no feerate found", e.error());
    }

    @Test
    void btcdIsAskedWithEstimatefee() throws IOException {
        FeeEstimates f = ask(
                (m, p) -> switch (m) {
                    case "estimatefee" ->
                        switch (p.path(0).asInt()) {
                            case 1 -> Answer.result("0.0002");
                            case 2 -> Answer.result("0");
                            default -> Http11OnlyNode.error(-32603, "not enough blocks have been observed");
                        };
                    default -> Http11OnlyNode.error(-32601, "Method not found");
                },
                List.of(1, 2, 3));
        assertEquals(FeeEstimates.BTCD, f.source());
        assertEquals(20.0, f.estimates().get(0).satPerVByte(), 1e-9);
        assertNull(f.estimates().get(0).blocks());
        assertNull(f.estimates().get(1).satPerVByte());
        assertTrue(
                f.estimates().get(1).error().contains("no estimate"),
                f.estimates().get(1).error());
        assertTrue(
                f.estimates().get(2).error().contains("not enough blocks"),
                f.estimates().get(2).error());
    }

    @Test
    void aNodeWithNeitherMethodSaysSo() throws IOException {
        FeeEstimates f = ask((m, p) -> Http11OnlyNode.error(-32601, "Method not found"), List.of(6));
        assertEquals(FeeEstimates.NONE, f.source());
        assertTrue(f.estimates().get(0).error().contains("neither"));
    }

    @Test
    void aFeerateOfTheWrongShapeIsTheNodeFailingNotAnEstimate() {
        NodeException e = assertThrows(
                NodeException.class,
                () -> ask((m, p) -> Answer.result("{\"feerate\":\"lots\",\"blocks\":2}"), List.of(6)));
        assertEquals(NodeException.Kind.UNAVAILABLE, e.kind());
        assertTrue(e.getMessage().contains("result.feerate must be a positive number"), e.getMessage());
        NodeException negative = assertThrows(
                NodeException.class, () -> ask((m, p) -> Answer.result("{\"feerate\":-1,\"blocks\":2}"), List.of(6)));
        assertEquals(NodeException.Kind.UNAVAILABLE, negative.kind());
    }
}
