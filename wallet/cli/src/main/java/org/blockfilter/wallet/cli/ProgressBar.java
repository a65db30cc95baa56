package org.blockfilter.wallet.cli;

import java.io.PrintStream;
import org.blockfilter.wallet.sync.SyncProgress;

/**
 * A one-line progress bar for sync, redrawn in place on a terminal stream: verified headers,
 * filters matched out of the range to scan, and blocks that matched. Not thread-safe.
 */
final class ProgressBar implements SyncProgress.Listener {
    private static final int WIDTH = 30;
    private final PrintStream out;
    private String last = "";

    ProgressBar(PrintStream out) {
        this.out = out;
    }

    @Override
    public void onProgress(SyncProgress p) {
        int first = Math.max(0, p.firstFilterHeight());
        // An incremental sync may have no filter left to scan (first is past the target): that is all done.
        int total = Math.max(0, p.targetHeight() - first + 1);
        int done = Math.max(0, Math.min(total, p.filtersHeight() - first + 1));
        long percent = total == 0 ? 100 : 100L * done / total;
        int filled = (int) (WIDTH * percent / 100);
        String line = String.format(
                "\r[%s%s] %3d%% %-14s blocks %d  filter headers %d  filters %d/%d  matched %d",
                "#".repeat(filled),
                ".".repeat(WIDTH - filled),
                percent,
                p.phase(),
                p.headersHeight(),
                Math.max(0, p.filterHeadersHeight()),
                done,
                total,
                p.matchedBlocks());
        if (!line.equals(last)) {
            out.print(line);
            out.flush();
            last = line;
        }
        if (p.phase().equals("done")) {
            out.println();
        }
    }
}
