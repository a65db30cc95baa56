package org.blockfilter.privacylab.internal.report;

import java.io.PrintStream;

/** A one-line progress indicator on stderr, updated at most every 2%. Thread-safe. */
public final class Progress {
    private final PrintStream out;
    private final String label;
    private final long total;
    private long done;
    private int lastPercent = -1;

    public Progress(PrintStream out, String label, long total) {
        this.out = out;
        this.label = label;
        this.total = Math.max(1, total);
    }

    /** Records {@code n} more units done. */
    public synchronized void add(long n) {
        done += n;
        int percent = (int) (100 * done / total);
        if (percent / 2 != lastPercent / 2 || done >= total) {
            lastPercent = percent;
            out.printf("\r%s %3d%% (%s/%s)%s", label, percent, human(done), human(total), done >= total ? "\n" : "");
            out.flush();
        }
    }

    private static String human(long n) {
        return n >= 1_000_000
                ? String.format("%.1fM", n / 1e6)
                : n >= 1000 ? String.format("%.1fk", n / 1e3) : Long.toString(n);
    }
}
