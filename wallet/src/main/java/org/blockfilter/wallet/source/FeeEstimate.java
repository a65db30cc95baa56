package org.blockfilter.wallet.source;

import java.util.OptionalDouble;

/**
 * A source's fee-rate estimate for confirmation within {@code targetBlocks}: the rate in sat/vB
 * and where it came from (e.g. {@code estimatesmartfee, for 6 blocks}), or no rate and why not
 * (what the node said, or that the source serves no estimates). Unverifiable: a source can name
 * any rate, so the wallet shows it before a payment is sent. Immutable.
 */
public record FeeEstimate(int targetBlocks, OptionalDouble satPerVByte, String detail) {
    public FeeEstimate {
        if (satPerVByte.isPresent() && !(satPerVByte.getAsDouble() > 0 && satPerVByte.getAsDouble() < 1e9)) {
            throw new IllegalArgumentException("fee rate out of range: " + satPerVByte.getAsDouble());
        }
    }

    /** An estimate of {@code satPerVByte} for confirmation within {@code targetBlocks}, with where it came from. */
    public static FeeEstimate of(int targetBlocks, double satPerVByte, String from) {
        return new FeeEstimate(targetBlocks, OptionalDouble.of(satPerVByte), from);
    }

    /** No estimate for {@code targetBlocks}, and why not. */
    public static FeeEstimate none(int targetBlocks, String why) {
        return new FeeEstimate(targetBlocks, OptionalDouble.empty(), why);
    }
}
