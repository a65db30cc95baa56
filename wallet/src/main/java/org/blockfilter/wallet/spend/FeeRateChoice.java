package org.blockfilter.wallet.spend;

import java.util.ArrayList;
import java.util.List;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.FeeEstimate;
import org.blockfilter.wallet.source.SourceException;

/**
 * The fee rate of a payment for which the user gave none: the sources' estimates for confirmation
 * within {@code targetBlocks}. With several estimates the lower median is taken: a source can name
 * any rate, and a rate too low leaves a payment that {@code bump} can still raise, while a fee too
 * high is gone. The rate is rounded up to a whole sat/vB. Immutable.
 *
 * @param satPerVByte the rate chosen
 * @param chosen      the estimate it was rounded from
 * @param asked       every source's answer, in the order asked
 */
public record FeeRateChoice(long satPerVByte, FeeEstimate chosen, List<FeeEstimate> asked) {
    /** The default confirmation target, as Bitcoin Core's wallet ({@code -txconfirmtarget}). */
    public static final int DEFAULT_TARGET_BLOCKS = 6;

    /** The highest target a node estimates for (Bitcoin Core's estimator tracks 1..1008). */
    public static final int MAX_TARGET_BLOCKS = 1008;

    /**
     * An estimate above this is refused as implausible: Bitcoin Core's default {@code maxfeerate}
     * for {@code sendrawtransaction} (0.10 BTC/kvB, src/node/transaction.h).
     */
    public static final double MAX_ESTIMATE_SAT_PER_VBYTE = 10_000;

    public FeeRateChoice {
        asked = List.copyOf(asked);
    }

    /**
     * Asks every source; a source that fails counts as one without an estimate.
     *
     * @throws IllegalArgumentException when no source has an estimate (saying each one's reason
     *     and to give {@code --fee-rate}), or the one chosen is implausibly high
     */
    public static FeeRateChoice choose(List<? extends ChainSource> sources, int targetBlocks) {
        if (targetBlocks < 1 || targetBlocks > MAX_TARGET_BLOCKS) {
            throw new IllegalArgumentException(
                    "--target-blocks must be 1.." + MAX_TARGET_BLOCKS + ", got " + targetBlocks);
        }
        List<FeeEstimate> asked = new ArrayList<>();
        for (ChainSource s : sources) {
            try {
                asked.add(s.feeEstimate(targetBlocks));
            } catch (SourceException e) {
                asked.add(FeeEstimate.none(targetBlocks, e.getMessage()));
            }
        }
        List<FeeEstimate> rated = asked.stream()
                .filter(e -> e.satPerVByte().isPresent())
                .sorted(java.util.Comparator.comparingDouble(
                        e -> e.satPerVByte().getAsDouble()))
                .toList();
        if (rated.isEmpty()) {
            throw new IllegalArgumentException("no fee estimate for confirmation within " + targetBlocks
                    + " blocks: "
                    + String.join("; ", asked.stream().map(FeeEstimate::detail).toList())
                    + "; give --fee-rate N (sat/vB)");
        }
        FeeEstimate chosen = rated.get((rated.size() - 1) / 2);
        double rate = chosen.satPerVByte().getAsDouble();
        if (rate > MAX_ESTIMATE_SAT_PER_VBYTE) {
            throw new IllegalArgumentException("the fee estimate " + rate + " sat/vB from " + chosen.detail()
                    + " is above " + (long) MAX_ESTIMATE_SAT_PER_VBYTE
                    + " sat/vB, Bitcoin Core's default maxfeerate; give --fee-rate N (sat/vB) if you mean it");
        }
        return new FeeRateChoice(Math.max(1, (long) Math.ceil(rate)), chosen, asked);
    }

    /** What was chosen and from where, for the payment's summary. */
    public String describe() {
        return "fee rate " + satPerVByte + " sat/vB: estimate for confirmation within " + chosen.targetBlocks()
                + " blocks from " + chosen.detail() + ": "
                + chosen.satPerVByte().getAsDouble() + " sat/vB"
                + (asked.size() > 1
                        ? " (lower median of "
                                + asked.stream()
                                        .filter(e -> e.satPerVByte().isPresent())
                                        .count() + " estimates from " + asked.size() + " sources)"
                        : "");
    }
}
