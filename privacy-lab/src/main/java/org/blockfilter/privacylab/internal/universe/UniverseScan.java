package org.blockfilter.privacylab.internal.universe;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.blockfilter.privacylab.internal.filters.FastBloom;
import org.blockfilter.privacylab.internal.report.Progress;

/**
 * The adversary's scan: every candidate of an {@link AddressUniverse} tested against a batch of filters.
 *
 * <p>For each candidate the scan forms a bit mask of the filters its HASH160 matched (and, when asked, a second
 * mask for its public key) and counts how many candidates produced each mask. From that histogram every
 * per-filter count and every intersection of filters follows. Counts are sums, so the result is the same for any
 * number of threads. Stateless; each call is independent.
 */
public final class UniverseScan {
    /** Most filters per scan when only hashes are tested. */
    public static final int MAX_FILTERS = 64;
    /** Most filters per scan when public keys are tested too. */
    public static final int MAX_FILTERS_WITH_PUBKEYS = 32;

    private static final long CHUNK = 1 << 20;

    private UniverseScan() {}

    /** How many candidates produced each match mask (masks of no match are not stored). */
    public record Histogram(long candidates, Map<Long, Long> counts) {
        public Histogram {
            counts = Map.copyOf(counts);
        }

        /** Candidates whose HASH160 matched every filter in {@code filters}. */
        public long hashMatchesAll(int... filters) {
            long want = 0;
            for (int f : filters) {
                want |= 1L << f;
            }
            long n = 0;
            for (Map.Entry<Long, Long> e : counts.entrySet()) {
                long hashMask = e.getKey();
                if ((hashMask & want) == want) {
                    n += e.getValue();
                }
            }
            return n;
        }

        /** Candidates whose HASH160 and public key both matched filter {@code f} (public-key scans only). */
        public long bothMatch(int f) {
            long n = 0;
            for (Map.Entry<Long, Long> e : counts.entrySet()) {
                long m = e.getKey();
                if ((m >>> f & 1) == 1 && (m >>> (32 + f) & 1) == 1) {
                    n += e.getValue();
                }
            }
            return n;
        }

        /** Candidates whose public key matched filter {@code f} (public-key scans only). */
        public long pubKeyMatches(int f) {
            long n = 0;
            for (Map.Entry<Long, Long> e : counts.entrySet()) {
                if ((e.getKey() >>> (32 + f) & 1) == 1) {
                    n += e.getValue();
                }
            }
            return n;
        }
    }

    /**
     * Scans candidates {@code [0, size)}.
     *
     * @param withPubKeys also test each candidate's public key; masks then hold hashes in bits 0..31 and keys in 32..63
     */
    public static Histogram scan(
            AddressUniverse universe,
            long size,
            List<FastBloom> filters,
            boolean withPubKeys,
            int threads,
            Progress progress) {
        int max = withPubKeys ? MAX_FILTERS_WITH_PUBKEYS : MAX_FILTERS;
        if (filters.size() > max) {
            throw new IllegalArgumentException("at most " + max + " filters per scan, got " + filters.size());
        }
        FastBloom[] fs = filters.toArray(new FastBloom[0]);
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads));
        try {
            List<Future<Map<Long, Long>>> parts = new ArrayList<>();
            for (long start = 0; start < size; start += CHUNK) {
                long from = start;
                long to = Math.min(size, start + CHUNK);
                parts.add(pool.submit(() -> {
                    Map<Long, Long> local = scanRange(universe, from, to, fs, withPubKeys);
                    if (progress != null) {
                        progress.add(to - from);
                    }
                    return local;
                }));
            }
            Map<Long, Long> total = new HashMap<>();
            for (Future<Map<Long, Long>> f : parts) {
                f.get().forEach((k, v) -> total.merge(k, v, Long::sum));
            }
            return new Histogram(size, total);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("scan interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("scan failed", e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    private static Map<Long, Long> scanRange(
            AddressUniverse universe, long from, long to, FastBloom[] fs, boolean withPubKeys) {
        Map<Long, Long> counts = new HashMap<>();
        byte[] hash = new byte[AddressUniverse.HASH_BYTES];
        byte[] key = new byte[AddressUniverse.PUBKEY_BYTES];
        for (long i = from; i < to; i++) {
            universe.hash160(i, hash);
            long mask = 0;
            for (int f = 0; f < fs.length; f++) {
                if (fs[f].contains(hash, AddressUniverse.HASH_BYTES)) {
                    mask |= 1L << f;
                }
            }
            if (withPubKeys) {
                universe.pubKey(i, key);
                for (int f = 0; f < fs.length; f++) {
                    if (fs[f].contains(key, AddressUniverse.PUBKEY_BYTES)) {
                        mask |= 1L << (32 + f);
                    }
                }
            }
            if (mask != 0) {
                counts.merge(mask, 1L, Long::sum);
            }
        }
        return counts;
    }
}
