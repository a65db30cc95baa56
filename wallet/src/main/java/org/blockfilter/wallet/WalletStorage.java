package org.blockfilter.wallet;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.wallet.store.ChainFiles;
import org.blockfilter.wallet.store.FileKey;
import org.blockfilter.wallet.store.RecordFile;
import org.blockfilter.wallet.store.WalletFile;
import org.blockfilter.wallet.store.WalletFileContent;
import org.blockfilter.wallet.sync.FilterHeaderChain;
import org.blockfilter.wallet.sync.VerifiedHeaderChain;

/**
 * The flat files of one wallet ({@link ChainFiles}) and the order a save writes them in, so that
 * kill -9 at any moment leaves files the document describes:
 * <ol>
 * <li>when a save rewrites records the document on disk commits (a reorg below the committed tip,
 * a rollback of filter headers or checkpoints), it first writes a document whose tip records
 * end where the files stay valid (and whose scan position and confirmed transactions end there too);</li>
 * <li>then the new records are written and fsynced ({@link RecordFile#write});</li>
 * <li>then the caller writes the document that commits them.</li>
 * </ol>
 * So a file is never shorter than, or different below, the tip the document on disk commits;
 * it may be longer (records written before a crash), and those are ignored. Not thread-safe.
 */
final class WalletStorage {
    private final RecordFile headers;
    private final RecordFile filterHeaders;
    private final RecordFile checkpoints;
    /** The BIP 157 checkpoints, loaded on first use. */
    private List<Sha256Hash> cps;
    /** Checkpoint records in the file that are still this wallet's. */
    private int cpsPersisted;

    private int cpsCommitted;
    private long recordBytes;

    WalletStorage(Path wallet) {
        this.headers = new RecordFile(ChainFiles.headers(wallet), ChainFiles.HEADER_BYTES);
        this.filterHeaders = new RecordFile(ChainFiles.filterHeaders(wallet), ChainFiles.HASH_BYTES);
        this.checkpoints = new RecordFile(ChainFiles.checkpoints(wallet), ChainFiles.HASH_BYTES);
    }

    RecordFile headerFile() {
        return headers;
    }

    RecordFile filterHeaderFile() {
        return filterHeaders;
    }

    /** Takes the committed checkpoint count of the document; the list itself is read when first asked for. */
    void openCheckpoints(int committedCount, Sha256Hash last) {
        long have = checkpoints.count();
        cpsPersisted = (int) Math.min(committedCount, have);
        cpsCommitted = committedCount;
        cps = null;
        if (cpsPersisted == committedCount && committedCount > 0) {
            Sha256Hash stored = Sha256Hash.wrap(checkpoints.read(committedCount - 1));
            if (!stored.equals(last)) {
                throw new org.blockfilter.wallet.store.WalletFileException(
                        "wallet checkpoint file " + checkpoints.path() + " holds " + stored + " as checkpoint "
                                + committedCount + ", but the wallet document commits " + last,
                        null);
            }
        }
    }

    /** A new wallet: nothing committed; the files are written from their first record. */
    void fresh() {
        cps = new ArrayList<>();
        cpsPersisted = 0;
        cpsCommitted = 0;
    }

    List<Sha256Hash> checkpoints() {
        if (cps == null) {
            List<Sha256Hash> list = new ArrayList<>();
            for (byte[] b : cpsPersisted == 0 ? List.<byte[]>of() : checkpoints.read(0, cpsPersisted)) {
                list.add(Sha256Hash.wrap(b));
            }
            cps = list;
        }
        return List.copyOf(cps);
    }

    int checkpointCount() {
        return cps == null ? cpsPersisted : cps.size();
    }

    Sha256Hash lastCheckpoint() {
        int n = checkpointCount();
        if (n == 0) {
            return null;
        }
        return cps != null ? cps.get(n - 1) : Sha256Hash.wrap(checkpoints.read(n - 1));
    }

    void setCheckpoints(List<Sha256Hash> next) {
        List<Sha256Hash> now = checkpoints();
        int same = 0;
        while (same < Math.min(now.size(), next.size()) && now.get(same).equals(next.get(same))) {
            same++;
        }
        cpsPersisted = Math.min(cpsPersisted, same);
        cps = new ArrayList<>(next);
    }

    /**
     * Writes what changed to the flat files, first committing a shorter document when records the
     * document on disk commits are rewritten. {@code onDisk} is the document on disk (null: none),
     * {@code next} the one the caller writes after this returns.
     */
    void writeRecords(Path file, LightWallet w, WalletFileContent onDisk, WalletFileContent next, FileKey key) {
        VerifiedHeaderChain chain = w.headers();
        FilterHeaderChain fh = w.filterHeaders();
        if (onDisk != null) {
            chain.committed(Math.max(chain.committedHeight(), onDisk.chain().tipHeight()));
            fh.committed(Math.max(fh.committedHeight(), onDisk.filterTipHeight()));
            cpsCommitted = Math.max(cpsCommitted, onDisk.checkpointCount());
        }
        boolean rewrites = chain.persistedHeight() < chain.committedHeight()
                || fh.persistedHeight() < fh.committedHeight()
                || cpsPersisted < cpsCommitted;
        if (rewrites && onDisk != null) {
            WalletFile.writeLocked(
                    file,
                    WalletFormat.upTo(
                            next,
                            chain,
                            fh,
                            chain.persistedHeight(),
                            Math.min(fh.persistedHeight(), next.filterTipHeight()),
                            cpsPersisted,
                            cpsPersisted == 0 ? null : Sha256Hash.wrap(checkpoints.read(cpsPersisted - 1))),
                    key);
            recordBytes += WalletFile.lastWriteBytes();
        }
        recordBytes += chain.flush();
        recordBytes += fh.flush(next.filterTipHeight());
        if (cps != null && cpsPersisted < cps.size()) {
            List<byte[]> raw = new ArrayList<>();
            for (Sha256Hash h : cps.subList(cpsPersisted, cps.size())) {
                raw.add(h.getBytes());
            }
            long before = checkpoints.bytesWritten();
            checkpoints.write(cpsPersisted, raw);
            recordBytes += checkpoints.bytesWritten() - before;
            cpsPersisted = cps.size();
        }
    }

    /** After the document {@code written} is on disk: what it commits. */
    void committed(LightWallet w, WalletFileContent written) {
        w.headers().committed(written.chain().tipHeight());
        w.filterHeaders().committed(written.filterTipHeight());
        cpsCommitted = written.checkpointCount();
    }

    /** Bytes written to the flat files (and interim documents) since the last call. */
    long takeRecordBytes() {
        long b = recordBytes;
        recordBytes = 0;
        return b;
    }

    static BigInteger workAt(VerifiedHeaderChain chain, int height) {
        return chain.chainWork().subtract(chain.workAbove(height));
    }
}
