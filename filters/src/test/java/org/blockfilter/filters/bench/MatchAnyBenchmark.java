package org.blockfilter.filters.bench;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.blockfilter.filters.Bip158;
import org.blockfilter.filters.gcs.GolombCodedSet;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * matchAny of a wallet's scripts against a block filter: btcd's grid of query size x filter size, plus
 * the headline case of 100 scripts vs 7,400 elements (target <= 50 us). Queries are non-members, the
 * usual case for a wallet scanning blocks and the slowest for an early-stopping walk.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class MatchAnyBenchmark {

    @Param({"10", "100", "1000", "10000"})
    public int query;

    @Param({"1000", "5000", "7400", "10000"})
    public int filter;

    private GolombCodedSet set;
    private List<byte[]> queries;

    @Setup
    public void setUp() {
        set = GolombCodedSet.build(Bip158.BASIC_P, Bip158.BASIC_M, BenchData.key(1), BenchData.scripts(2, filter));
        queries = BenchData.scripts(4, query);
    }

    @Benchmark
    public boolean matchAny() {
        return set.matchAny(queries);
    }
}
