package org.blockfilter.filters.bench;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.bitcoinj.base.Sha256Hash;
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
 * What Bitcoin Core's bench covers for GCS (construct, decode, match, filter hash), on basic-filter
 * parameters. Times are per whole set: divide by {@code n} for per-element figures.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class GcsBenchmark {

    /** 7,400 elements is a typical recent mainnet block. */
    @Param({"1000", "7400", "10000"})
    public int n;

    private byte[] key;
    private List<byte[]> items;
    private byte[] encoded;
    private GolombCodedSet set;
    private byte[] member;
    private byte[] nonMember;

    @Setup
    public void setUp() {
        key = BenchData.key(1);
        items = BenchData.scripts(2, n);
        set = GolombCodedSet.build(Bip158.BASIC_P, Bip158.BASIC_M, key, items);
        encoded = set.encoded();
        member = items.get(n / 2);
        nonMember = BenchData.scripts(3, 1).get(0);
    }

    /** Build from items: hash, sort, Rice-code. */
    @Benchmark
    public GolombCodedSet construct() {
        return GolombCodedSet.build(Bip158.BASIC_P, Bip158.BASIC_M, key, items);
    }

    /** Strict decode: copy + full validation of all n elements (Core's GCSFilterDecode). */
    @Benchmark
    public GolombCodedSet decode() {
        return GolombCodedSet.decode(Bip158.BASIC_P, Bip158.BASIC_M, key, encoded);
    }

    /** Decode of a validated set into its n values. */
    @Benchmark
    public long[] values() {
        return set.values();
    }

    /** One item that is in the set (walks half the stream on average). */
    @Benchmark
    public boolean matchMember() {
        return set.match(member);
    }

    /** One item that is not in the set: walks to its position. */
    @Benchmark
    public boolean matchNonMember() {
        return set.match(nonMember);
    }

    /** double-SHA256 of the encoding (the BIP 157 filter hash). */
    @Benchmark
    public byte[] filterHash() {
        return Sha256Hash.hashTwice(encoded);
    }
}
