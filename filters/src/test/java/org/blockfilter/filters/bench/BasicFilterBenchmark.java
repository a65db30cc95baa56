package org.blockfilter.filters.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.bitcoinj.core.Block;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.PrevoutScripts;
import org.blockfilter.filters.Vectors;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A basic filter from a parsed block (element extraction, dedupe, GCS, filter hash) on the largest
 * block of the BIP 158 vectors (testnet3 926485, 17 scripts, N = 9), read from the classpath copy of the vectors.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class BasicFilterBenchmark {

    private Block block;
    private PrevoutScripts prevouts;

    @Setup
    public void setUp() throws Exception {
        for (JsonNode row : Vectors.json("bip158/blockfilters.json")) {
            if (row.size() > 1 && row.get(0).asInt() == 926485) {
                block = Block.read(
                        ByteBuffer.wrap(HexFormat.of().parseHex(row.get(2).asText())));
                List<byte[]> prev = new ArrayList<>();
                row.get(3).forEach(s -> prev.add(HexFormat.of().parseHex(s.asText())));
                prevouts = PrevoutScripts.inInputOrder(block, prev);
            }
        }
    }

    @Benchmark
    public BasicFilter buildFromBlock() {
        return BasicFilter.build(block, prevouts);
    }
}
