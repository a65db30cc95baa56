package org.blockfilter.filters.bench;

import java.util.concurrent.TimeUnit;
import org.blockfilter.filters.gcs.SipHash;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** SipHash-2-4 of one script (target: <= 30 ns for 22-34 bytes, no allocation). */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SipHashBenchmark {

    @Param({"22", "25", "34"})
    public int length;

    private byte[] script;
    private long k0;
    private long k1;

    @Setup
    public void setUp() {
        script = BenchData.scripts(length, 1).get(0);
        script = java.util.Arrays.copyOf(script, length);
        k0 = 0x0706050403020100L;
        k1 = 0x0f0e0d0c0b0a0908L;
    }

    @Benchmark
    public long hash24() {
        return SipHash.hash24(k0, k1, script, 0, script.length);
    }
}
