package org.blockfilter.privacylab.internal.adversaries;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.blockfilter.privacylab.internal.chains.Subject;
import org.blockfilter.privacylab.internal.filters.FastBloom;

/**
 * The BIP 37 adversary of Gervais et al. (ACSAC 2014) beyond one filter's false positives: the estimate of how many
 * elements a filter holds from its set bits, what that tells about the wallet's address count, and the
 * intersection of several filters of one wallet, ordered by that estimate as the paper orders them. Stateless.
 *
 * <p>Estimate: a filter of m bits and k functions with X bits set holds about n = -(m/k) ln(1 - X/m) elements
 * (the maximum-likelihood inversion of E[X] = m(1 - e^{-kn/m})). A wallet that inserts each key's public key and
 * hash, plus c elements it inserts whatever its size (the unused lookahead keys of an HD wallet), holds n = 2N + c, so
 * N = (n - c) / 2. The paper uses the estimate to sort the filters it holds of one client by size (the wallet only
 * grows) and to intersect the larger ones: K_j = B_j & ... & B_b holds every address the wallet had when it sent B_j.
 */
public final class Bip37Adversary {
    private Bip37Adversary() {}

    /** n = -(m/k) ln(1 - X/m) for a filter of {@code bits} bits, {@code hashFuncs} functions and {@code setBits} set. */
    public static double estimateElements(long bits, int hashFuncs, long setBits) {
        if (bits <= 0 || hashFuncs <= 0) {
            throw new IllegalArgumentException(
                    "need bits > 0 and hashFuncs > 0, got bits=" + bits + " hashFuncs=" + hashFuncs);
        }
        if (setBits < 0 || setBits > bits) {
            throw new IllegalArgumentException("setBits must be in [0, " + bits + "], got " + setBits);
        }
        if (setBits == bits) {
            return Double.POSITIVE_INFINITY; // a full filter says only "at least this many"
        }
        return -((double) bits / hashFuncs) * Math.log1p(-(double) setBits / bits);
    }

    /** The estimate for {@code f}'s own bits. */
    public static double estimateElements(FastBloom f) {
        return estimateElements(f.bitCount(), f.hashFuncs(), f.setBits());
    }

    /** The wallet's address count implied by {@code elements}: (elements - constant) / perAddress. */
    public static double estimateAddresses(double elements, int perAddress, int constant) {
        if (perAddress <= 0) {
            throw new IllegalArgumentException("perAddress must be positive, got " + perAddress);
        }
        return (elements - constant) / perAddress;
    }

    /** The indices of {@code filters} sorted by increasing estimated element count (ties: the given order). */
    public static int[] orderByEstimate(List<FastBloom> filters) {
        double[] est = new double[filters.size()];
        for (int i = 0; i < est.length; i++) {
            est[i] = estimateElements(filters.get(i));
        }
        Integer[] idx = new Integer[est.length];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = i;
        }
        Arrays.sort(idx, Comparator.comparingDouble(i -> est[i]));
        return Arrays.stream(idx).mapToInt(Integer::intValue).toArray();
    }

    /** The candidates (20-byte hashes) that match every one of {@code filters}: the intersection of their matches. */
    public static List<byte[]> matchAll(List<FastBloom> filters, List<byte[]> candidates) {
        List<byte[]> out = new ArrayList<>();
        for (byte[] c : candidates) {
            boolean all = true;
            for (FastBloom f : filters) {
                if (!f.contains(c, c.length)) {
                    all = false;
                    break;
                }
            }
            if (all) {
                out.add(c);
            }
        }
        return out;
    }

    /**
     * The paper's K_j for every j in the adversary's order: {@code suffixes.get(j)} lists the positions (into
     * {@code order}) of B_order[j], ..., B_order[b-1].
     */
    public static List<int[]> suffixes(int[] order) {
        List<int[]> out = new ArrayList<>();
        for (int j = 0; j < order.length; j++) {
            out.add(Arrays.copyOfRange(order, j, order.length));
        }
        return out;
    }

    /**
     * The expected number of non-client addresses among {@code universe} that match every filter of {@code subset}:
     * independent tweaks make the filters' hash functions independent, so a non-member matches them all with the
     * product of their rates (each rate exactly density^k).
     */
    public static double expectedFalsePositives(List<Subject> filters, int[] subset, long universe) {
        double p = 1;
        for (int i : subset) {
            p *= filters.get(i).densityRate();
        }
        return p * universe;
    }
}
