package org.blockfilter.server.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.server.read.IndexedFilter;

/**
 * The server the load script (server/bench/load.sh) measures: the REST layer over an in-memory
 * index of {@code length} blocks (the vector blocks, then synthetic ones) and a fake node. Heights
 * 20..(20 + bigBlocks - 1) get generated blocks of {@code txPerBlock} one-input, two-output P2WPKH
 * transactions, so the BIP 37 path scans blocks of a realistic size. Prints the URLs the script
 * needs, then serves until its standard input closes.
 *
 * <p>Usage: {@code RestLoadBenchmark [length] [bigBlocks] [txPerBlock]}.
 */
public final class RestLoadBenchmark {
    private RestLoadBenchmark() {}

    public static void main(String[] args) throws IOException {
        int length = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int bigBlocks = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int txPerBlock = args.length > 2 ? Integer.parseInt(args[2]) : 2_000;
        RestTestChain chain = RestTestChain.build(length);
        Random random = new Random(42);
        for (int h = 20; h < 20 + bigBlocks; h++) {
            IndexedFilter f = chain.at(h);
            chain.rawBlocks.put(f.blockHash(), bigBlock(chain.headers.get(f.blockHash()), txPerBlock, random));
        }
        RestServer server = RestServer.start(
                RestConfig.defaults().withPort(Integer.getInteger("port", 0)),
                new InMemoryIndex(chain),
                new FakeNode(chain, 0, true));
        System.out.println("BASE " + server.baseUri());
        System.out.println("FILTER_HASH " + chain.at(length / 2).blockHash());
        System.out.println("RANGE_START " + (length - 1500));
        System.out.println("RANGE_STOP " + chain.at(length - 501).blockHash());
        System.out.println("HEADERS_FROM " + chain.at(length - 3000).blockHash());
        System.out.println("BIG_FIRST 20");
        System.out.println("BIG_LAST " + (20 + bigBlocks - 1));
        System.out.println("READY");
        System.out.flush();
        while (System.in.read() >= 0) {
            // serve until the script closes our stdin
        }
        server.close();
    }

    /** A block: the given 80-byte header, then coinbase-like and ordinary transactions with random keys. */
    static byte[] bigBlock(byte[] header, int txs, Random random) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(txs * 230);
        out.writeBytes(header);
        out.writeBytes(new org.bitcoinj.base.VarInt(txs).serialize());
        for (int i = 0; i < txs; i++) {
            Transaction tx = new Transaction();
            byte[] prev = new byte[32];
            random.nextBytes(prev);
            tx.addInput(Sha256Hash.wrap(prev), random.nextInt(4), new ScriptBuilder().build());
            for (int o = 0; o < 2; o++) {
                byte[] keyHash = new byte[20];
                random.nextBytes(keyHash);
                tx.addOutput(
                        Coin.valueOf(10_000 + random.nextInt(1_000_000)),
                        new ScriptBuilder().smallNum(0).data(keyHash).build());
            }
            out.writeBytes(tx.serialize());
        }
        return Arrays.copyOf(out.toByteArray(), out.size());
    }
}
