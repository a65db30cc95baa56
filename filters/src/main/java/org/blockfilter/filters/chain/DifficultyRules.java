package org.blockfilter.filters.chain;

import java.math.BigInteger;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Which {@code nBits} a block header must carry, as Bitcoin Core's {@code pow.cpp} decides it
 * ({@code GetNextWorkRequired}, {@code CalculateNextWorkRequired},
 * {@code PermittedDifficultyTransition}) plus BIP 94's time-warp rule from Core's
 * {@code ContextualCheckBlockHeader}:
 *
 * <ul>
 *   <li>mainnet and signet: the bits change only every 2016 blocks, to the last block's target
 *       times the period's duration over two weeks, the duration clamped to [1/4, 4] of two weeks,
 *       never above the proof-of-work limit;
 *   <li>testnet3: the same, but a block more than 20 minutes after its parent may use the minimum
 *       difficulty, and any other block carries the bits of the last block that was not such a block
 *       (or of the period's first block);
 *   <li>testnet4 (BIP 94): testnet3's rules, except that a retarget starts from the bits of the
 *       period's first block, not its last, and the period's first block must not be dated more than
 *       600 seconds before its parent;
 *   <li>regtest: never retargets.
 * </ul>
 *
 * <p>Signet's block signature (BIP 325) is in the coinbase, not the header: a header chain cannot
 * check it, so on signet these rules (and proof of work) are all a light client checks; anyone able
 * to mine at signet's low difficulty can make headers that pass.
 *
 * <p>The rules read a block's ancestors through {@link Ancestors}, which may start above genesis
 * (a chain started at a checkpoint). Everything is checked exactly when the chain starts at a
 * retarget boundary (a multiple of 2016, as every shipped checkpoint is). Above a start that is not,
 * an ancestor the rule needs can be missing; then only what the available blocks allow is checked:
 * Core's {@code PermittedDifficultyTransition} (the 4x clamp from the parent's bits, the test Core
 * itself applies to headers before it has their ancestors) on mainnet and signet, the
 * proof-of-work limit on the test networks.
 *
 * <p>Immutable and thread-safe.
 */
public final class DifficultyRules {
    /** Blocks per difficulty period ({@code DifficultyAdjustmentInterval()}). */
    public static final int INTERVAL = 2016;
    /** Two weeks: the time a period should take ({@code nPowTargetTimespan}). */
    public static final long TARGET_TIMESPAN = 14 * 24 * 60 * 60;
    /** Ten minutes ({@code nPowTargetSpacing}). */
    public static final long TARGET_SPACING = 10 * 60;
    /** BIP 94: how far a period's first block may be dated before its parent ({@code MAX_TIMEWARP}). */
    public static final long MAX_TIMEWARP = 600;

    private static final BigInteger TWO_256 = BigInteger.ONE.shiftLeft(256);

    /** The headers below the one being checked: heights {@link #lowestHeight()} up to its parent. */
    public interface Ancestors {
        /** The lowest height whose header is available. */
        int lowestHeight();

        /** {@code nTime} of the header at {@code height} (lowestHeight..parent). */
        long time(int height);

        /** {@code nBits} of the header at {@code height} (lowestHeight..parent). */
        long bits(int height);
    }

    private final Chain chain;
    private final BigInteger powLimit;
    private final long powLimitBits;
    private final boolean allowMinDifficultyBlocks;
    private final boolean enforceBip94;
    private final boolean noRetargeting;

    private DifficultyRules(Chain chain, boolean allowMin, boolean bip94, boolean noRetargeting) {
        this.chain = chain;
        this.powLimit = chain.powLimit();
        this.powLimitBits = compact(powLimit);
        this.allowMinDifficultyBlocks = allowMin;
        this.enforceBip94 = bip94;
        this.noRetargeting = noRetargeting;
    }

    /** The rules of {@code chain}: Core's {@code fPowAllowMinDifficultyBlocks}, {@code enforce_BIP94} and {@code fPowNoRetargeting}. */
    public static DifficultyRules of(Chain chain) {
        return switch (chain) {
            case MAINNET, SIGNET -> new DifficultyRules(chain, false, false, false);
            case TESTNET3 -> new DifficultyRules(chain, true, false, false);
            case TESTNET4 -> new DifficultyRules(chain, true, true, false);
            case REGTEST -> new DifficultyRules(chain, true, false, true);
        };
    }

    /** The network these rules belong to. */
    public Chain chain() {
        return chain;
    }

    /** Whether a block more than 20 minutes after its parent may use the minimum difficulty (the test networks). */
    public boolean allowsMinimumDifficultyBlocks() {
        return allowMinDifficultyBlocks;
    }

    /**
     * What is wrong with a header at {@code height} ({@code >= 1}) dated {@code time} that claims
     * {@code bits}, on top of {@code ancestors}; empty when it follows the rules.
     */
    public Optional<String> violation(int height, long time, long bits, Ancestors ancestors) {
        if (height < 1 || ancestors.lowestHeight() > height - 1) {
            throw new IllegalArgumentException(
                    "header " + height + " needs its parent, but ancestors start at " + ancestors.lowestHeight());
        }
        Optional<BigInteger> target = target(bits);
        if (target.isEmpty() || target.get().compareTo(powLimit) > 0) {
            return Optional.of("bits " + hex(bits) + " are not a target within the network's proof-of-work limit "
                    + hex(powLimitBits));
        }
        int parent = height - 1;
        if (enforceBip94 && height % INTERVAL == 0 && time < ancestors.time(parent) - MAX_TIMEWARP) {
            return Optional.of("time " + time + " of a period's first block is more than " + MAX_TIMEWARP
                    + " s before its parent's " + ancestors.time(parent) + " (BIP 94 time-warp rule)");
        }
        OptionalLong required = requiredBits(height, time, ancestors);
        if (required.isPresent()) {
            return required.getAsLong() == bits
                    ? Optional.empty()
                    : Optional.of(
                            "bits " + hex(bits) + ", but the difficulty rules require " + hex(required.getAsLong()));
        }
        // An ancestor the rule needs is below the chain's start: check what the parent allows.
        if (!allowMinDifficultyBlocks && !permittedTransition(height, ancestors.bits(parent), bits)) {
            return Optional.of("bits " + hex(bits) + " are not a permitted change from the parent's "
                    + hex(ancestors.bits(parent)));
        }
        return Optional.empty();
    }

    /**
     * The bits the header at {@code height} dated {@code time} must carry (Core's
     * {@code GetNextWorkRequired}), or empty when an ancestor this needs is below
     * {@code ancestors.lowestHeight()}.
     */
    public OptionalLong requiredBits(int height, long time, Ancestors ancestors) {
        int parent = height - 1;
        if (height % INTERVAL != 0) {
            if (!allowMinDifficultyBlocks) {
                return OptionalLong.of(ancestors.bits(parent));
            }
            if (time > ancestors.time(parent) + TARGET_SPACING * 2) {
                return OptionalLong.of(powLimitBits);
            }
            // The last block that is not a minimum-difficulty exception, or a period's first block.
            int h = parent;
            while (h > 0 && h % INTERVAL != 0 && ancestors.bits(h) == powLimitBits) {
                if (h == ancestors.lowestHeight()) {
                    return OptionalLong.empty();
                }
                h--;
            }
            return OptionalLong.of(ancestors.bits(h));
        }
        if (noRetargeting) {
            return OptionalLong.of(ancestors.bits(parent));
        }
        int first = height - INTERVAL;
        if (first < ancestors.lowestHeight()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(nextWorkRequired(
                ancestors.bits(parent), ancestors.time(parent), ancestors.time(first), ancestors.bits(first)));
    }

    /**
     * Core's {@code CalculateNextWorkRequired}: the bits of a period's first block from the last
     * block of the previous period ({@code lastBits}, {@code lastTime}) and its first
     * ({@code firstTime}; {@code firstBits} is the base under BIP 94, ignored otherwise).
     */
    public long nextWorkRequired(long lastBits, long lastTime, long firstTime, long firstBits) {
        if (noRetargeting) {
            return lastBits;
        }
        long span = Math.min(Math.max(lastTime - firstTime, TARGET_TIMESPAN / 4), TARGET_TIMESPAN * 4);
        BigInteger base = decode(enforceBip94 ? firstBits : lastBits);
        BigInteger next = base.multiply(BigInteger.valueOf(span)).divide(BigInteger.valueOf(TARGET_TIMESPAN));
        return compact(next.min(powLimit));
    }

    /**
     * Core's {@code PermittedDifficultyTransition}: whether {@code newBits} at {@code height} can
     * follow a parent with {@code oldBits} for some period duration (always true where
     * minimum-difficulty blocks are allowed, since any bits can follow there).
     */
    public boolean permittedTransition(int height, long oldBits, long newBits) {
        if (allowMinDifficultyBlocks) {
            return true;
        }
        if (height % INTERVAL != 0) {
            return oldBits == newBits;
        }
        BigInteger observed = decode(newBits);
        BigInteger old = decode(oldBits);
        BigInteger T = BigInteger.valueOf(TARGET_TIMESPAN);
        BigInteger largest =
                old.multiply(BigInteger.valueOf(TARGET_TIMESPAN * 4)).divide(T).min(powLimit);
        BigInteger smallest =
                old.multiply(BigInteger.valueOf(TARGET_TIMESPAN / 4)).divide(T).min(powLimit);
        return decode(compact(largest)).compareTo(observed) >= 0
                && decode(compact(smallest)).compareTo(observed) <= 0;
    }

    /** The work of a block with {@code bits}: 2^256 / (target + 1), 0 for bits that are no target (Core's {@code GetBlockProof}). */
    public static BigInteger work(long bits) {
        return target(bits).map(t -> TWO_256.divide(t.add(BigInteger.ONE))).orElse(BigInteger.ZERO);
    }

    /** The target of compact {@code bits}, or empty when they are negative, overflow 256 bits or are zero (Core's {@code SetCompact} flags). */
    public static Optional<BigInteger> target(long bits) {
        int size = (int) (bits >>> 24) & 0xff;
        long word = bits & 0x007fffffL;
        boolean negative = word != 0 && (bits & 0x00800000L) != 0;
        boolean overflow = word != 0 && (size > 34 || (word > 0xff && size > 33) || (word > 0xffff && size > 32));
        BigInteger value = decode(bits);
        return negative || overflow || value.signum() == 0 ? Optional.empty() : Optional.of(value);
    }

    /** Core's {@code arith_uint256::SetCompact} value, without its sign and overflow flags. */
    static BigInteger decode(long bits) {
        int size = (int) (bits >>> 24) & 0xff;
        long word = bits & 0x007fffffL;
        return size <= 3
                ? BigInteger.valueOf(word >>> (8 * (3 - size)))
                : BigInteger.valueOf(word).shiftLeft(8 * (size - 3));
    }

    /** Core's {@code arith_uint256::GetCompact} of a non-negative target. */
    public static long compact(BigInteger target) {
        int size = (target.bitLength() + 7) / 8;
        long word = size <= 3
                ? target.longValue() << (8 * (3 - size))
                : target.shiftRight(8 * (size - 3)).longValue();
        if ((word & 0x00800000L) != 0) {
            word >>>= 8;
            size++;
        }
        return word | ((long) size << 24);
    }

    private static String hex(long bits) {
        return String.format("%08x", bits);
    }
}
