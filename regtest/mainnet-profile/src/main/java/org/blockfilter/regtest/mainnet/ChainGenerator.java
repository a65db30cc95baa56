package org.blockfilter.regtest.mainnet;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import org.bitcoinj.params.RegTestParams;
import org.blockfilter.regtest.mainnet.internal.ByteSink;
import org.blockfilter.regtest.mainnet.internal.Rng;
import org.blockfilter.regtest.mainnet.internal.Scripts;
import org.blockfilter.regtest.mainnet.internal.UtxoPool;

/**
 * Generates a {@link MainnetProfile} chain into a cache file that {@link ProfileChain} replays.
 * Blocks are serialized by hand (bitcoinj's object model is far too slow for 10 million
 * outputs) and are well-formed regtest blocks: prev-hash chaining, merkle root, BIP 141 witness
 * commitment, nBits 0x207fffff with a ground nonce, BIP 34 height in the coinbase. They are not
 * consensus-valid beyond that: signatures are random bytes, amounts do not balance and coinbase
 * maturity is ignored (the filter indexer validates none of these).
 *
 * <p>File layout: {@code "BFMP"}, the format version, the profile key; then one record per block
 * from height 0: {@code int length, block bytes, int length, prevouts}, where prevouts lists, for
 * every non-coinbase input in block order, {@code int height, long value, byte length, script}.
 * The chain is written to a temporary name and renamed when complete, with a {@code .meta}
 * properties file of per-phase totals beside it.
 */
public final class ChainGenerator {
    /** Part of every cache key: bump it whenever the generator's output changes, so stale caches are not replayed. */
    static final int FORMAT_VERSION = 1;

    static final byte[] MAGIC = {'B', 'F', 'M', 'P'};

    /** Regtest genesis time; block {@code h} is stamped 10 minutes after block {@code h-1}. */
    private static final long GENESIS_TIME = 1_296_688_602L;

    private static final int BITS = 0x207fffff;
    /** The spend-age law's young window ({@link MainnetStatistics#YOUNG_BLOCKS}). */
    private static final int YOUNG_BLOCKS = MainnetStatistics.YOUNG_BLOCKS;

    private final MainnetProfile profile;
    private final Rng rng;
    /** {@link #rng} for the shared samplers of {@link MainnetStatistics}. */
    private final MainnetStatistics.Uniform uniform;

    private final UtxoPool pool = new UtxoPool();
    private final MessageDigest sha = ByteSink.sha256();
    private final ByteSink body = new ByteSink(4 << 20);
    private final ByteSink coinbase = new ByteSink(4096);
    private final ByteSink block = new ByteSink(4 << 20);
    private final ByteSink prevouts = new ByteSink(1 << 20);
    private final ByteSink scratch = new ByteSink(64);
    private final int[] recentStarts = new int[YOUNG_BLOCKS];
    private long freshScripts;
    private byte[] prevHash;
    private int height;

    // per block
    private final List<byte[]> txids = new ArrayList<>();
    private final List<byte[]> wtxids = new ArrayList<>();
    private final Set<Integer> elements = new HashSet<>();
    private int blockStart;
    private long blockInputs;
    private long blockOutputs;
    private long blockReused;
    private int blockTxs;
    private final BitSet usedReusers = new BitSet();

    private ChainGenerator(MainnetProfile profile) {
        this.profile = profile;
        this.rng = new Rng(profile.seed());
        this.uniform = new MainnetStatistics.Uniform() {
            @Override
            public double nextDouble() {
                return rng.nextDouble();
            }

            @Override
            public int nextInt(int bound) {
                return rng.nextInt(bound);
            }
        };
    }

    /** Per-phase totals, as written to the {@code .meta} file. */
    static final class Phase {
        long blocks;
        long txs;
        long inputs;
        long outputs;
        long reused;
        long bytes;
        long elements;

        void add(ChainGenerator g, int blockBytes) {
            blocks++;
            txs += g.blockTxs;
            inputs += g.blockInputs;
            outputs += g.blockOutputs;
            reused += g.blockReused;
            bytes += blockBytes;
            elements += g.elements.size();
        }

        void put(Properties p, String name) {
            p.setProperty(name + ".blocks", Long.toString(blocks));
            p.setProperty(name + ".txs", Long.toString(txs));
            p.setProperty(name + ".inputs", Long.toString(inputs));
            p.setProperty(name + ".outputs", Long.toString(outputs));
            p.setProperty(name + ".reused_outputs", Long.toString(reused));
            p.setProperty(name + ".bytes", Long.toString(bytes));
            p.setProperty(name + ".filter_elements", Long.toString(elements));
        }
    }

    /** The cache file of {@code profile} in {@code dir}, generating it first if it is missing. */
    public static Path ensure(MainnetProfile profile, Path dir, PrintStream progress) throws IOException {
        Path file = dir.resolve(profile.key() + ".chain");
        if (Files.exists(file) && Files.exists(metaFile(file))) {
            progress.println("mainnet-profile: reusing " + file);
            return file;
        }
        Files.createDirectories(dir);
        generate(profile, file, progress);
        return file;
    }

    static Path metaFile(Path chainFile) {
        return chainFile.resolveSibling(chainFile.getFileName() + ".meta");
    }

    /** Writes the chain of {@code profile} to {@code file} (replacing it), printing progress. */
    public static void generate(MainnetProfile profile, Path file, PrintStream progress) throws IOException {
        Objects.requireNonNull(profile, "profile");
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Properties meta;
        try (OutputStream os = Files.newOutputStream(tmp);
                DataOutputStream out = new DataOutputStream(new BufferedOutputStream(os, 1 << 20))) {
            meta = new ChainGenerator(profile).run(out, progress);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        try (OutputStream os = Files.newOutputStream(metaFile(file))) {
            meta.store(os, "mainnet profile " + profile.key());
        }
    }

    private Properties run(DataOutputStream out, PrintStream progress) throws IOException {
        long started = System.nanoTime();
        out.write(MAGIC);
        out.writeInt(FORMAT_VERSION);
        out.writeUTF(profile.key());
        byte[] genesis = RegTestParams.get().getGenesisBlock().serialize();
        out.writeInt(genesis.length);
        out.write(genesis);
        out.writeInt(0);
        prevHash = headerHash(genesis, 0);

        Phase ramp = new Phase();
        Phase steady = new Phase();
        long lastPrint = 0;
        int utxoAtRampEnd;
        // Ramp: batch payouts until the unspent set reaches the target.
        while (pool.unspent() < profile.utxoTarget()) {
            buildBlock(true);
            ramp.add(this, block.size());
            write(out);
            if (System.nanoTime() - lastPrint > 5e9) {
                lastPrint = System.nanoTime();
                progress.printf(
                        Locale.ROOT,
                        "mainnet-profile: ramp height=%d utxos=%,d / %,d  (%.0f s)%n",
                        height,
                        pool.unspent(),
                        profile.utxoTarget(),
                        (System.nanoTime() - started) / 1e9);
            }
        }
        int rampEnd = height;
        utxoAtRampEnd = pool.unspent();
        for (int i = 0; i < profile.steadyBlocks(); i++) {
            buildBlock(false);
            steady.add(this, block.size());
            write(out);
            if (System.nanoTime() - lastPrint > 5e9) {
                lastPrint = System.nanoTime();
                progress.printf(
                        Locale.ROOT,
                        "mainnet-profile: steady height=%d (%d of %d) utxos=%,d txs/block=%d elements=%d  (%.0f s)%n",
                        height,
                        i + 1,
                        profile.steadyBlocks(),
                        pool.unspent(),
                        blockTxs,
                        elements.size(),
                        (System.nanoTime() - started) / 1e9);
            }
        }
        Properties meta = new Properties();
        meta.setProperty("key", profile.key());
        meta.setProperty("tip_height", Integer.toString(height));
        meta.setProperty("ramp_end_height", Integer.toString(rampEnd));
        meta.setProperty("utxos_at_ramp_end", Integer.toString(utxoAtRampEnd));
        meta.setProperty("utxos_at_tip", Integer.toString(pool.unspent()));
        ramp.put(meta, "ramp");
        steady.put(meta, "steady");
        progress.printf(
                Locale.ROOT,
                "mainnet-profile: generated %d blocks (ramp to %d, %,d utxos; steady to %d, %,d utxos) in %.0f s%n",
                height,
                rampEnd,
                utxoAtRampEnd,
                height,
                pool.unspent(),
                (System.nanoTime() - started) / 1e9);
        return meta;
    }

    private void write(DataOutputStream out) throws IOException {
        out.writeInt(block.size());
        out.write(block.array(), 0, block.size());
        out.writeInt(prevouts.size());
        out.write(prevouts.array(), 0, prevouts.size());
    }

    private void buildBlock(boolean ramp) {
        height++;
        body.reset();
        prevouts.reset();
        txids.clear();
        wtxids.clear();
        elements.clear();
        blockInputs = 0;
        blockOutputs = 0;
        blockReused = 0;
        blockTxs = 0;
        // Spends come from earlier blocks only; the young window is the last YOUNG_BLOCKS blocks.
        blockStart = pool.outputs();
        int youngFrom = recentStarts[height % YOUNG_BLOCKS];
        recentStarts[height % YOUNG_BLOCKS] = blockStart;
        if (height == 1) {
            youngFrom = 0;
        }
        int txCount = 0;
        if (height > 1) {
            if (ramp) {
                int made = 0;
                while (made < profile.rampOutputsPerBlock() && pool.unspent() > 0) {
                    int m = profile.rampOutputsPerTx();
                    int n = rng.between(Math.max(1, m / 2), m * 3 / 2);
                    writeTx(1, n, youngFrom);
                    made += n;
                    txCount++;
                }
            } else {
                int target = MainnetStatistics.txPerBlock(uniform, profile.txPerBlock());
                for (int i = 1; i < target && pool.unspent() > blockInputs + 100; i++) {
                    writeTx(MainnetStatistics.inputsPerTx(uniform), MainnetStatistics.outputsPerTx(uniform), youngFrom);
                    txCount++;
                }
            }
        }
        writeCoinbase(height == 1 ? 2_000 : 1);
        assemble(txCount + 1);
        blockTxs = txCount + 1;
    }

    /** An unspent output of an earlier block: 35% from the last 6 blocks, else log-uniform in age. */
    private int drawSpend(int youngFrom) {
        int limit = blockStart;
        int from;
        if (MainnetStatistics.youngSpend(uniform) && youngFrom < limit) {
            from = youngFrom + rng.nextInt(limit - youngFrom);
        } else {
            from = (int) Math.max(0, limit - MainnetStatistics.oldSpendAge(uniform, limit));
        }
        int s = pool.takeFrom(from, limit);
        if (s < 0) {
            throw new IllegalStateException("no unspent output left to spend at height " + height);
        }
        return s;
    }

    private int outputScript(int changeScript) {
        if (changeScript >= 0) {
            return changeScript;
        }
        if (rng.nextDouble() < profile.reuseShare()) {
            int rank = MainnetStatistics.reuserRank(uniform);
            // A reuser's type is a function of its rank, with the same shares as fresh outputs.
            int type = (int) Long.remainderUnsigned(Rng.mix(profile.seed() * 977 + rank), 100);
            int t = 0;
            double acc = MainnetStatistics.typeShare(ScriptType.P2WPKH) * 100;
            while (type >= acc && t < ScriptType.P2WSH.ordinal()) {
                t++;
                acc += MainnetStatistics.typeShare(ScriptType.ofOrdinal(t)) * 100;
            }
            return Scripts.reuser(rank, t);
        }
        return Scripts.fresh(
                freshScripts++, MainnetStatistics.outputType(uniform).ordinal());
    }

    private long value(int serial) {
        double u = (Rng.mix(profile.seed() * 131 + serial) >>> 11) * 0x1.0p-53;
        return (long) Math.exp(Math.log(1_000) + u * (Math.log(1e8) - Math.log(1_000)));
    }

    private void writeTx(int nIn, int nOut, int youngFrom) {
        int[] spends = new int[nIn];
        boolean segwit = false;
        for (int i = 0; i < nIn; i++) {
            spends[i] = drawSpend(youngFrom);
            segwit |= Scripts.spendHasWitness(Scripts.type(pool.scriptOf(spends[i])));
        }
        boolean opReturn = nOut >= 1 && rng.nextDouble() < MainnetStatistics.OP_RETURN_SHARE;
        boolean changeToSelf = nOut >= 2 && rng.nextDouble() < profile.changeToSelfShare();
        int start = body.size();
        body.u32(2);
        if (segwit) {
            body.u8(0);
            body.u8(1);
        }
        int mid = body.size();
        body.varInt(nIn);
        for (int s : spends) {
            pool.writeTxid(body, pool.txOf(s));
            body.u32(pool.vout(s));
            int scriptId = pool.scriptOf(s);
            Scripts.writeScriptSig(body, rng, Scripts.type(scriptId));
            body.u32(0xfffffffdL);
            // prevout sidecar: height, value, script
            prevouts.u32(pool.heightOf(s));
            prevouts.u64(value(s));
            prevouts.u8(Scripts.length(scriptId));
            Scripts.write(prevouts, profile.seed(), scriptId);
            elements.add(scriptId);
        }
        int tx = pool.beginTx(height);
        int outputs = nOut + (opReturn ? 1 : 0);
        body.varInt(outputs);
        for (int i = 0; i < nOut; i++) {
            int id = outputScript(changeToSelf && i == nOut - 1 ? pool.scriptOf(spends[0]) : -1);
            int serial = pool.add(id);
            body.u64(value(serial));
            body.varInt(Scripts.length(id));
            Scripts.write(body, profile.seed(), id);
            if (changeToSelf && i == nOut - 1 || reusedBefore(id)) {
                blockReused++;
            }
            elements.add(id);
        }
        if (opReturn) {
            pool.add(Scripts.NULL_DATA_ID);
            body.u64(0);
            int len = rng.between(10, 75);
            body.varInt(len + 2);
            body.u8(0x6a);
            body.u8(len);
            body.noise(rng, len);
        }
        int midEnd = body.size();
        if (segwit) {
            for (int s : spends) {
                Scripts.writeWitness(body, rng, Scripts.type(pool.scriptOf(s)));
            }
        }
        body.u32(0);
        int end = body.size();
        byte[] b = body.array();
        sha.update(b, start, 4);
        sha.update(b, mid, midEnd - mid);
        sha.update(b, end - 4, 4);
        byte[] txid = sha.digest(sha.digest());
        byte[] wtxid = segwit ? ByteSink.sha256d(sha, b, start, end - start) : txid;
        pool.setTxid(tx, txid);
        txids.add(txid);
        wtxids.add(wtxid);
        blockInputs += nIn;
        blockOutputs += outputs;
    }

    private static boolean isReuser(int id) {
        return (id & (1 << 30)) != 0;
    }

    /** Whether a reuser script was paid before (marks it paid). Fresh scripts are new by construction. */
    private boolean reusedBefore(int id) {
        if (!isReuser(id)) {
            return false;
        }
        int rank = (id & ~(1 << 30)) >>> 3;
        boolean before = usedReusers.get(rank);
        usedReusers.set(rank);
        return before;
    }

    private void writeCoinbase(int outputs) {
        byte[] witnessRoot = merkleRoot(wtxidsWithCoinbase());
        coinbase.reset();
        ByteSink c = coinbase;
        c.u32(1);
        c.u8(0);
        c.u8(1);
        c.varInt(1);
        c.bytes(new byte[32]);
        c.u32(0xffffffffL);
        // BIP 34: the height as a minimal script number push, then an extra nonce.
        scratch.reset();
        int h = height;
        while (h > 0) {
            scratch.u8(h & 0xff);
            h >>>= 8;
        }
        if ((scratch.array()[scratch.size() - 1] & 0x80) != 0) {
            scratch.u8(0);
        }
        c.varInt(1 + scratch.size() + 9);
        c.u8(scratch.size());
        c.bytes(scratch.array(), 0, scratch.size());
        c.u8(8);
        c.noise(rng, 8);
        c.u32(0xffffffffL);
        int tx = pool.beginTx(height);
        c.varInt(outputs + 1);
        for (int i = 0; i < outputs; i++) {
            int id = Scripts.fresh(freshScripts++, Scripts.P2WPKH);
            c.u64(value(pool.add(id)));
            c.varInt(Scripts.length(id));
            Scripts.write(c, profile.seed(), id);
            elements.add(id);
        }
        // BIP 141 witness commitment: OP_RETURN 0xaa21a9ed SHA256d(witness root || nonce of 32 zeros)
        byte[] commitmentInput = new byte[64];
        System.arraycopy(witnessRoot, 0, commitmentInput, 0, 32);
        byte[] commitment = ByteSink.sha256d(sha, commitmentInput, 0, 64);
        c.u64(0);
        c.varInt(38);
        c.u8(0x6a);
        c.u8(0x24);
        c.u8(0xaa);
        c.u8(0x21);
        c.u8(0xa9);
        c.u8(0xed);
        c.bytes(commitment);
        int midEnd = c.size();
        c.varInt(1);
        c.varInt(32);
        c.bytes(new byte[32]);
        c.u32(0);
        byte[] b = c.array();
        sha.update(b, 0, 4);
        sha.update(b, 6, midEnd - 6);
        sha.update(b, c.size() - 4, 4);
        byte[] txid = sha.digest(sha.digest());
        pool.setTxid(tx, txid);
        txids.add(0, txid);
        blockOutputs += outputs + 1;
    }

    private List<byte[]> wtxidsWithCoinbase() {
        List<byte[]> all = new ArrayList<>(wtxids.size() + 1);
        all.add(new byte[32]);
        all.addAll(wtxids);
        return all;
    }

    private void assemble(int txCount) {
        block.reset();
        block.u32(0x20000000L);
        block.bytes(prevHash);
        block.bytes(merkleRoot(txids));
        block.u32(GENESIS_TIME + 600L * height);
        block.u32(BITS);
        block.u32(0);
        // nBits 0x207fffff: a hash whose top byte is below 0x7f always meets the target.
        long nonce = 0;
        byte[] hash;
        while (true) {
            block.putU32At(76, nonce);
            hash = headerHash(block.array(), 0);
            if ((hash[31] & 0xff) < 0x7f) {
                break;
            }
            nonce++;
        }
        block.varInt(txCount);
        block.bytes(coinbase.array(), 0, coinbase.size());
        block.bytes(body.array(), 0, body.size());
        prevHash = hash;
    }

    private byte[] headerHash(byte[] b, int off) {
        return ByteSink.sha256d(sha, b, off, 80);
    }

    private byte[] merkleRoot(List<byte[]> leaves) {
        List<byte[]> level = new ArrayList<>(leaves);
        byte[] pair = new byte[64];
        while (level.size() > 1) {
            List<byte[]> next = new ArrayList<>((level.size() + 1) / 2);
            for (int i = 0; i < level.size(); i += 2) {
                byte[] left = level.get(i);
                byte[] right = i + 1 < level.size() ? level.get(i + 1) : left;
                System.arraycopy(left, 0, pair, 0, 32);
                System.arraycopy(right, 0, pair, 32, 32);
                next.add(ByteSink.sha256d(sha, pair, 0, 64));
            }
            level = next;
        }
        return level.get(0);
    }
}
