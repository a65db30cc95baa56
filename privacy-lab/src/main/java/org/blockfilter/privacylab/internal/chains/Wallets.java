package org.blockfilter.privacylab.internal.chains;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.ScriptType;
import org.bitcoinj.core.BloomFilter;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.wallet.DeterministicSeed;
import org.bitcoinj.wallet.KeyChain;
import org.bitcoinj.wallet.KeyChainGroup;

/**
 * Client wallets built with bitcoinj's own key-chain code, and the filters bitcoinj derives from them.
 *
 * <p>Filters are sized as bitcoinj's {@code FilterMerger} (what {@code PeerGroup} sends) sizes them: the wallet's
 * {@code getBloomFilterElementCount()} plus 100 headroom, then {@code KeyChainGroup.getBloomFilter(size, rate, tweak)}.
 * {@code FilterMerger} draws its tweak from {@code Math.random()}; here the tweak comes from the experiment's seed so
 * runs are reproducible (a test checks the filter is otherwise identical). Everything is derived from seeds.
 * Not thread-safe.
 */
public final class Wallets {
    /** FilterMerger's constant headroom on top of the wallet's element count. */
    public static final int FILTER_MERGER_HEADROOM = 100;
    /** bitcoinj 0.12-era default target false-positive rate (the paper's setting). */
    public static final double RATE_2014 = 0.0005;
    /** Today's bitcoinj default ({@code PeerGroup.DEFAULT_BLOOM_FILTER_FP_RATE}). */
    public static final double RATE_TODAY = 1e-5;

    private Wallets() {}

    /** Which bitcoinj generation's wallet and defaults. */
    public enum Model {
        /**
         * Pre-HD bitcoinj (0.11 and before): imported keys only (basic key chain), no lookahead; filter capacity
         * 2N + 100. The wallet the paper measured (its 0.05% rate and 2N + 100 sizing).
         */
        Y2014("bitcoinj pre-HD (<=0.11, the paper's)"),
        /**
         * bitcoinj 0.12 (October 2014, the first HD release): one BIP 32 chain (P2PKH), lookahead 100 plus a
         * threshold of 100 / 3 = 33 on the external and the internal branch, every key's pubkey and hash in the
         * filter (DeterministicKeyChain.numBloomFilterEntries = numKeys x 2 in 0.12). Built with today's bitcoinj,
         * whose P2PKH chain has the same lookahead rule and the same filter contents.
         */
        HD_2014("bitcoinj 0.12 HD (first HD release)"),
        /**
         * bitcoinj 0.17 as {@code KeyChainGroup.fromSeed(seed, P2WPKH)} builds it: a P2WPKH chain AND a fallback
         * P2PKH chain from the same seed, both with the default lookahead, both in the filter.
         */
        TODAY("bitcoinj 0.17 P2WPKH (+ fallback P2PKH chain)");

        private final String label;

        Model(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** A wallet that grows address by address; its filter can be taken at any size. */
    public interface Client {
        /** Makes the wallet hold {@code n} used (receiving) addresses in total; returns their HASH160s in order. */
        List<byte[]> growTo(int n);

        /** The filter bitcoinj would send now, at target rate {@code rate} and tweak {@code tweak}. */
        BloomFilter filter(double rate, int tweak);

        /** The filter for an explicit capacity (what FilterMerger sends while the wallet stays within its headroom). */
        BloomFilter filter(int capacity, double rate, int tweak);

        /** Elements bitcoinj inserts for this wallet (keys x 2), before FilterMerger's headroom. */
        int elementCount();
    }

    /** A new client of {@code model} whose keys derive from {@code seed}. */
    public static Client client(Model model, long seed) {
        return switch (model) {
            case Y2014 -> new Basic(seed);
            case HD_2014 -> new Hd(seed, ScriptType.P2PKH);
            case TODAY -> new Hd(seed, ScriptType.P2WPKH);
        };
    }

    private static final class Basic implements Client {
        private final KeyChainGroup group = KeyChainGroup.createBasic(BitcoinNetwork.MAINNET);
        private final SplittableRandom rnd;
        private final List<byte[]> hashes = new ArrayList<>();

        Basic(long seed) {
            this.rnd = new SplittableRandom(seed);
        }

        @Override
        public List<byte[]> growTo(int n) {
            List<ECKey> fresh = new ArrayList<>();
            while (hashes.size() + fresh.size() < n) {
                byte[] priv = new byte[32];
                rnd.nextBytes(priv);
                priv[0] &= 0x7f; // below the group order
                priv[31] |= 1; // never zero
                fresh.add(ECKey.fromPrivate(priv, true));
            }
            group.importKeys(fresh);
            fresh.forEach(k -> hashes.add(k.getPubKeyHash()));
            return List.copyOf(hashes.subList(0, n));
        }

        @Override
        public BloomFilter filter(double rate, int tweak) {
            return group.getBloomFilter(elementCount() + FILTER_MERGER_HEADROOM, rate, tweak);
        }

        @Override
        public BloomFilter filter(int capacity, double rate, int tweak) {
            return group.getBloomFilter(capacity, rate, tweak);
        }

        @Override
        public int elementCount() {
            return group.getBloomFilterElementCount();
        }
    }

    private static final class Hd implements Client {
        private final KeyChainGroup group;
        private final List<byte[]> hashes = new ArrayList<>();

        Hd(long seed, ScriptType type) {
            byte[] entropy = new byte[16];
            new SplittableRandom(seed).nextBytes(entropy);
            DeterministicSeed s = DeterministicSeed.ofEntropy(entropy, "", Instant.ofEpochSecond(1_700_000_000L));
            this.group = KeyChainGroup.builder(BitcoinNetwork.MAINNET)
                    .fromSeed(s, type)
                    .build();
        }

        @Override
        public List<byte[]> growTo(int n) {
            if (n > hashes.size()) {
                group.freshKeys(KeyChain.KeyPurpose.RECEIVE_FUNDS, n - hashes.size())
                        .forEach(k -> hashes.add(k.getPubKeyHash()));
            }
            return List.copyOf(hashes.subList(0, n));
        }

        @Override
        public BloomFilter filter(double rate, int tweak) {
            return group.getBloomFilter(elementCount() + FILTER_MERGER_HEADROOM, rate, tweak);
        }

        @Override
        public BloomFilter filter(int capacity, double rate, int tweak) {
            return group.getBloomFilter(capacity, rate, tweak);
        }

        @Override
        public int elementCount() {
            return group.getBloomFilterElementCount();
        }
    }
}
