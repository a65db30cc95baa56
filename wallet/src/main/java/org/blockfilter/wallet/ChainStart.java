package org.blockfilter.wallet;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import org.bitcoinj.core.Block;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.chain.HeaderCheckpoint;
import org.blockfilter.filters.chain.HeaderCheckpoints;
import org.blockfilter.wallet.keys.AddressKind;

/**
 * Where a new wallet's chains start: the header checkpoint its block-header chain starts from
 * (the highest at or below its birthday, genesis when there is none) and the default birthday of
 * a restored wallet. Stateless.
 *
 * <p>{@link #shipped(Chain)} is the one place the wallet obtains a network's checkpoints.
 */
public final class ChainStart {
    private ChainStart() {}

    /** The header checkpoints shipped for {@code chain}, genesis first ({@link HeaderCheckpoints}). */
    public static List<HeaderCheckpoint> shipped(Chain chain) {
        return HeaderCheckpoints.of(chain);
    }

    /**
     * The checkpoint a wallet born at {@code birthday} starts its header chain from: the highest of
     * {@code checkpoints} at or below the birthday's height; for a birthday given as a time, the
     * highest whose block time is more than two hours before it (block times may lag); for a wallet
     * born at the tip, the highest of all. Genesis when none qualifies.
     */
    public static HeaderCheckpoint baseFor(
            Chain chain, List<HeaderCheckpoint> checkpoints, LightWallet.Birthday birthday) {
        HeaderCheckpoint genesis = chain.genesisCheckpoint();
        return checkpoints.stream()
                .filter(c -> qualifies(c, birthday))
                .max(Comparator.comparingInt(HeaderCheckpoint::height))
                .orElse(genesis);
    }

    private static boolean qualifies(HeaderCheckpoint c, LightWallet.Birthday b) {
        if (b.fromTip()) {
            return true;
        }
        if (b.epochSeconds() != null) {
            long time = Block.read(java.nio.ByteBuffer.wrap(c.header())).time().getEpochSecond();
            return time < b.epochSeconds() - 7200;
        }
        return c.height() <= b.height();
    }

    /**
     * The default birthday of a restored or watch-only wallet: the earliest height at which any of
     * its account kinds could have been paid. P2PKH existed from genesis, so a wallet with a P2PKH
     * account starts at 0. P2WPKH could not be paid before segwit activated, P2TR not before
     * taproot did. Heights from Bitcoin Core's {@code src/kernel/chainparams.cpp}: mainnet {@code
     * SegwitHeight = 481824} and the taproot deployment's {@code min_activation_height = 709632};
     * testnet3 {@code SegwitHeight = 834624} (taproot is taken as no earlier than segwit there);
     * testnet4 and signet {@code SegwitHeight = 1} (taproot always active); regtest 0.
     */
    public static int safeBirthday(Chain chain, Collection<AddressKind> kinds) {
        int earliest = Integer.MAX_VALUE;
        for (AddressKind k : kinds) {
            earliest = Math.min(earliest, earliestPayment(chain, k));
        }
        return kinds.isEmpty() ? 0 : earliest;
    }

    private static int earliestPayment(Chain chain, AddressKind kind) {
        if (kind == AddressKind.P2PKH) {
            return 0;
        }
        return switch (chain) {
            case MAINNET -> kind == AddressKind.P2TR ? 709_632 : 481_824;
            case TESTNET3 -> 834_624;
            case TESTNET4, SIGNET -> 1;
            case REGTEST -> 0;
        };
    }
}
