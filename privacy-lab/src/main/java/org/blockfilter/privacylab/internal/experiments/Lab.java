package org.blockfilter.privacylab.internal.experiments;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.blockfilter.privacylab.internal.filters.FastBloom;
import org.blockfilter.privacylab.internal.report.Progress;
import org.blockfilter.privacylab.internal.report.Report;
import org.blockfilter.privacylab.internal.report.Template;
import org.blockfilter.privacylab.internal.universe.AddressUniverse;
import org.blockfilter.privacylab.internal.universe.UniverseScan;

/**
 * What every experiment is given: seed, mode, output directory, threads and the progress stream.
 * Immutable; the output directory is the caller's.
 *
 * @param seed    the master seed; every random choice derives from it
 * @param quick   small sizes (seconds) instead of the real ones
 * @param out     the root output directory; experiment {@code x} writes to {@code out/x}
 * @param threads threads for universe scans
 * @param log     where progress goes (stderr for the CLI)
 */
public record Lab(long seed, boolean quick, Path out, int threads, PrintStream log) {
    /** The paper's blockchain address count. */
    public static final long PAPER_UNIVERSE = 33_000_000L;
    /** A larger, more recent address count (experiment 4). */
    public static final long LARGE_UNIVERSE = 60_000_000L;

    private static final long QUICK_UNIVERSE = 200_000L;

    /** The number of non-client addresses the adversary tests: 33M, or 200k in quick mode. */
    public long universe() {
        return quick ? QUICK_UNIVERSE : PAPER_UNIVERSE;
    }

    /** The larger universe: 60M, or 400k in quick mode. */
    public long largeUniverse() {
        return quick ? 2 * QUICK_UNIVERSE : LARGE_UNIVERSE;
    }

    /** A sub-seed for one use, derived from the master seed and a tag and numbers. */
    public long seed(String tag, long... ids) {
        long h = AddressUniverse.mix(seed ^ tag.hashCode());
        for (long id : ids) {
            h = AddressUniverse.mix(h ^ AddressUniverse.mix(id + 0x632BE59BD9B4E019L));
        }
        return h;
    }

    /** The tweak (nonce) a restart would draw, derived from the seed. */
    public int tweak(String tag, long... ids) {
        return (int) seed("tweak/" + tag, ids);
    }

    /** The universe for this run's seed. */
    public AddressUniverse addressUniverse() {
        return new AddressUniverse(seed("universe"));
    }

    /** Creates and returns {@code out/name}. */
    public Path dir(String name) {
        try {
            return Files.createDirectories(out.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Scans the universe of {@code size} against any number of filters, in batches; one histogram per batch. */
    public List<UniverseScan.Histogram> scanAll(String label, long size, List<FastBloom> filters, boolean withPubKeys) {
        return scanAll(
                label,
                size,
                filters,
                withPubKeys,
                withPubKeys ? UniverseScan.MAX_FILTERS_WITH_PUBKEYS : UniverseScan.MAX_FILTERS);
    }

    /** As {@link #scanAll(String, long, List, boolean)} with {@code batch} filters per scan (filter i is in histogram i / batch). */
    public List<UniverseScan.Histogram> scanAll(
            String label, long size, List<FastBloom> filters, boolean withPubKeys, int batch) {
        List<UniverseScan.Histogram> out = new ArrayList<>();
        int passes = (filters.size() + batch - 1) / batch;
        for (int p = 0; p < passes; p++) {
            List<FastBloom> part = filters.subList(p * batch, Math.min(filters.size(), (p + 1) * batch));
            Progress progress = new Progress(
                    log, String.format("%s: scan %d/%d of %d filters,", label, p + 1, passes, filters.size()), size);
            out.add(UniverseScan.scan(addressUniverse(), size, part, withPubKeys, threads, progress));
        }
        return out;
    }

    /**
     * Experiment {@code exp}'s report in {@code dir}, titled by section {@code title} of its template and opening
     * with the line that regenerates it.
     */
    public Report report(Path dir, Template.Sections text, String exp) {
        Report rep = new Report(dir, text.get("title").render());
        rep.paragraph(regenerate(exp));
        return rep;
    }

    /** The line that regenerates experiment {@code exp}'s output, for the top of its report. */
    public String regenerate(String exp) {
        return "Regenerate with `privacy-lab/run.sh " + exp + " --seed " + seed + (quick ? " --quick" : "") + " --out "
                + out + "` (from the repository root). Mode: "
                + (quick ? "QUICK (small sizes, not the paper's)" : "full") + ".";
    }

    /** Formats a count like 33,000,000. */
    public static String count(long n) {
        return String.format("%,d", n);
    }
}
