package org.blockfilter.filters.bench;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.function.LongSupplier;
import org.blockfilter.filters.Bip158;
import org.blockfilter.filters.gcs.GolombCodedSet;
import org.blockfilter.filters.gcs.SipHash;

/**
 * The JMH cases again, timed by this thread's CPU time instead of wall-clock time, with allocated bytes
 * per operation from the JVM's per-thread counter. On a shared, overloaded machine JMH's wall-clock
 * numbers include time the thread spent descheduled; thread CPU time does not (cache and SMT
 * contention from other processes still count). A cross-check for JMH, not a replacement: no forks,
 * one warm-up per case, best of five rounds.
 */
public final class CpuTimeBenchmark {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static long sink;
    private static String only = "";

    private CpuTimeBenchmark() {}

    /** Optional argument: run only the cases whose name contains it. */
    public static void main(String[] args) {
        only = args.length > 0 ? args[0] : "";
        byte[] key = BenchData.key(1);
        long k0 = SipHash.keyHalf(key, 0);
        long k1 = SipHash.keyHalf(key, 8);
        for (int len : new int[] {22, 25, 34}) {
            byte[] script = java.util.Arrays.copyOf(BenchData.scripts(len, 1).get(0), len);
            // 1,000 hashes per call, so the (megamorphic) call into the lambda is not part of the figure;
            // the key varies so the JIT cannot hoist the hash out of the loop.
            report("siphash24 " + len + " bytes", -1000, () -> {
                long acc = 0;
                for (int i = 0; i < 1000; i++) {
                    acc += SipHash.hash24(k0, k1 ^ i, script, 0, script.length);
                }
                return acc;
            });
        }
        for (int n : new int[] {1000, 7400, 10_000}) {
            List<byte[]> items = BenchData.scripts(2, n);
            GolombCodedSet set = GolombCodedSet.build(Bip158.BASIC_P, Bip158.BASIC_M, key, items);
            byte[] encoded = set.encoded();
            report(
                    "construct N=" + n,
                    n,
                    () -> GolombCodedSet.build(Bip158.BASIC_P, Bip158.BASIC_M, key, items)
                            .encodedLength());
            report(
                    "decode (strict) N=" + n,
                    n,
                    () -> GolombCodedSet.decode(Bip158.BASIC_P, Bip158.BASIC_M, key, encoded)
                            .size());
            report("values N=" + n, n, () -> set.values().length);
        }
        for (int filter : new int[] {1000, 5000, 7400, 10_000}) {
            GolombCodedSet set =
                    GolombCodedSet.build(Bip158.BASIC_P, Bip158.BASIC_M, key, BenchData.scripts(2, filter));
            for (int query : new int[] {10, 100, 1000, 10_000}) {
                List<byte[]> queries = BenchData.scripts(4, query);
                report("matchAny query=" + query + " filter=" + filter, 1, () -> set.matchAny(queries) ? 1 : 0);
            }
        }
    }

    /**
     * Prints one case's best CPU time and allocation per operation. {@code elements}: elements per
     * operation (per-element figures), or -k for k operations per call.
     */
    public static void report(String name, int elements, LongSupplier op) {
        if (!name.contains(only)) {
            return;
        }
        run(op, 300_000_000L); // warm-up: ~0.3 s of CPU
        double best = Double.MAX_VALUE;
        double bytesPerOp = 0;
        for (int round = 0; round < 5; round++) {
            long cpu0 = THREADS.getCurrentThreadCpuTime();
            long alloc0 = THREADS.getCurrentThreadAllocatedBytes();
            long ops = run(op, 100_000_000L);
            long cpu = THREADS.getCurrentThreadCpuTime() - cpu0;
            long alloc = THREADS.getCurrentThreadAllocatedBytes() - alloc0;
            double nsPerOp = (double) cpu / ops;
            if (nsPerOp < best) {
                best = nsPerOp;
                bytesPerOp = (double) alloc / ops;
            }
        }
        if (elements < 0) { // -k: k operations per call
            best /= -elements;
            bytesPerOp /= -elements;
            System.out.printf("%-36s %12.1f ns/op %12.0f B/op%n", name, best, bytesPerOp);
        } else if (elements > 1) {
            System.out.printf(
                    "%-36s %12.1f ns/op %8.2f ns/element %10.1f M elements/s %12.0f B/op%n",
                    name, best, best / elements, 1e3 / (best / elements), bytesPerOp);
        } else {
            System.out.printf("%-36s %12.1f ns/op %12.0f B/op%n", name, best, bytesPerOp);
        }
    }

    /** Runs op in growing batches until at least cpuNanos of this thread's CPU time passed; returns ops. */
    private static long run(LongSupplier op, long cpuNanos) {
        long start = THREADS.getCurrentThreadCpuTime();
        long ops = 0;
        long batch = 1;
        long acc = 0;
        while (THREADS.getCurrentThreadCpuTime() - start < cpuNanos) {
            for (long i = 0; i < batch; i++) {
                acc += op.getAsLong();
            }
            ops += batch;
            batch = Math.min(batch * 2, 1 << 16);
        }
        sink += acc;
        return ops;
    }
}
