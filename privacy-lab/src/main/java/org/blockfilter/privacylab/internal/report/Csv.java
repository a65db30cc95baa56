package org.blockfilter.privacylab.internal.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A CSV table built row by row and written once (RFC 4180 quoting, '.' decimals). Not thread-safe. */
public final class Csv {
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    public Csv(String... header) {
        this.header = List.of(header);
    }

    /** Adds a row; numbers are formatted locale-independently, doubles with up to 6 significant digits. */
    public Csv row(Object... cells) {
        if (cells.length != header.size()) {
            throw new IllegalArgumentException("row has " + cells.length + " cells, header has " + header.size());
        }
        List<String> r = new ArrayList<>();
        for (Object c : cells) {
            r.add(format(c));
        }
        rows.add(r);
        return this;
    }

    public List<List<String>> rows() {
        return List.copyOf(rows);
    }

    public List<String> header() {
        return header;
    }

    public static String format(Object c) {
        if (c instanceof Double d) {
            if (d.isNaN() || d.isInfinite()) {
                return d.toString();
            }
            if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                return String.format(Locale.ROOT, "%.1f", d);
            }
            double a = Math.abs(d);
            if (a >= 1e-5 && a < 1e9) {
                return new java.math.BigDecimal(d)
                        .round(new java.math.MathContext(6))
                        .stripTrailingZeros()
                        .toPlainString();
            }
            return String.format(Locale.ROOT, "%.5e", d);
        }
        return String.valueOf(c);
    }

    public void write(Path file) {
        StringBuilder sb = new StringBuilder();
        sb.append(line(header));
        rows.forEach(r -> sb.append(line(r)));
        try {
            Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String line(List<String> cells) {
        List<String> q = new ArrayList<>();
        for (String c : cells) {
            q.add(c.contains(",") || c.contains("\"") ? "\"" + c.replace("\"", "\"\"") + "\"" : c);
        }
        return String.join(",", q) + "\n";
    }
}
