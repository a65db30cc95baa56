package org.blockfilter.privacylab.internal;

/**
 * The adversary of the BIP 158 experiment: it sees which blocks a wallet downloads (all of them, or the share that
 * went to its peer) and guesses the wallet's addresses from the addresses in those blocks.
 *
 * <p>Universe: every address in the chain. Explicit addresses (reused ones and the wallets') have known block
 * lists; fresh single-use scripts are only counted per block (each appears in exactly one block).
 * <ul>
 *   <li><b>consistent</b> candidates: addresses that appear in at least one block and ALL of whose blocks were
 *   observed, {@code {a : blocks(a) != {} and blocks(a) ⊆ observed}}. A wallet downloads every block its
 *   addresses appear in, so against an observer that sees all downloads each of its addresses is a consistent
 *   candidate.</li>
 *   <li><b>any-block</b> candidates: addresses with at least one block observed (the weaker adversary, and the
 *   right one for an observer that knows it sees only part of the downloads).</li>
 * </ul>
 * P_h(1) = (wallet addresses among the candidates) / (candidates): the chance that one address picked from the
 * candidates is the wallet's. Stateless and thread-safe; arrays are read, never changed.
 */
public final class BlockSetAdversary {
    private BlockSetAdversary() {}

    /** Candidate counts for one observation. */
    public record Guess(long candidates, long real, long anyCandidates, long anyReal) {
        public double ph1() {
            return candidates == 0 ? 0 : (double) real / candidates;
        }

        public double anyPh1() {
            return anyCandidates == 0 ? 0 : (double) anyReal / anyCandidates;
        }
    }

    /**
     * @param fresh           fresh single-use addresses per block
     * @param explicitInBlock distinct explicit address ids per block
     * @param blocksOf        sorted distinct blocks per explicit address id
     * @param observed        which blocks the adversary saw downloaded
     * @param walletFrom      the wallet's first explicit id (inclusive)
     * @param walletTo        the wallet's last explicit id (exclusive)
     */
    public static Guess guess(
            int[] fresh, int[][] explicitInBlock, int[][] blocksOf, boolean[] observed, int walletFrom, int walletTo) {
        long freshSum = 0;
        long consistent = 0;
        long real = 0;
        long any = 0;
        long anyReal = 0;
        java.util.BitSet seen = new java.util.BitSet(blocksOf.length);
        for (int b = 0; b < observed.length; b++) {
            if (!observed[b]) {
                continue;
            }
            freshSum += fresh[b];
            for (int id : explicitInBlock[b]) {
                if (seen.get(id)) {
                    continue;
                }
                seen.set(id);
                boolean mine = id >= walletFrom && id < walletTo;
                any++;
                if (mine) {
                    anyReal++;
                }
                if (allObserved(blocksOf[id], observed)) {
                    consistent++;
                    if (mine) {
                        real++;
                    }
                }
            }
        }
        return new Guess(freshSum + consistent, real, freshSum + any, anyReal);
    }

    private static boolean allObserved(int[] blocks, boolean[] observed) {
        for (int b : blocks) {
            if (!observed[b]) {
                return false;
            }
        }
        return true;
    }
}
