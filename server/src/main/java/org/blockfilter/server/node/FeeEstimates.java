package org.blockfilter.server.node;

import java.util.List;

/**
 * The node's fee-rate estimates for a list of confirmation targets, as {@code GET
 * /api/v1/fee-estimates} serves them. {@code source} is the RPC that answered ({@code
 * estimatesmartfee} from Bitcoin Core or our embedded node, {@code estimatefee} from btcd) or
 * {@code none} when the node has neither. Immutable.
 */
public record FeeEstimates(String source, List<Estimate> estimates) {
    public static final String SMART = "estimatesmartfee";
    public static final String BTCD = "estimatefee";
    public static final String NONE = "none";

    public FeeEstimates {
        estimates = List.copyOf(estimates);
    }

    /**
     * One target: {@code satPerVByte} the node's estimate (null when it has none) and {@code blocks}
     * the target it says the estimate is for (Core may answer for another one; null from btcd), or
     * {@code error} the node's reason for having none (null when there is an estimate).
     */
    public record Estimate(int target, Double satPerVByte, Integer blocks, String error) {}
}
