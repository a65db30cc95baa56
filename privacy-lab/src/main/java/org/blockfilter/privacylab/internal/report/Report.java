package org.blockfilter.privacylab.internal.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;

/**
 * A report written twice from the same content: Markdown (images linked) and HTML (images embedded as data URIs,
 * so the file stands alone). Paragraph text may use **bold** and `code`. Not thread-safe.
 */
public final class Report {
    private final Path dir;
    private final StringBuilder md = new StringBuilder();
    private final StringBuilder html = new StringBuilder();
    private final String title;

    public Report(Path dir, String title) {
        this.dir = dir;
        this.title = title;
        md.append("# ").append(title).append("\n\n");
        html.append("<h1>").append(esc(title)).append("</h1>\n");
    }

    public Report heading(String text) {
        md.append("## ").append(text).append("\n\n");
        html.append("<h2>").append(esc(text)).append("</h2>\n");
        return this;
    }

    public Report paragraph(String text) {
        md.append(text).append("\n\n");
        html.append("<p>").append(inline(esc(text))).append("</p>\n");
        return this;
    }

    public Report code(String text) {
        md.append("```\n").append(text).append("\n```\n\n");
        html.append("<pre><code>").append(esc(text)).append("</code></pre>\n");
        return this;
    }

    public Report bullets(List<String> items) {
        html.append("<ul>\n");
        for (String i : items) {
            md.append("- ").append(i).append("\n");
            html.append("<li>").append(inline(esc(i))).append("</li>\n");
        }
        md.append("\n");
        html.append("</ul>\n");
        return this;
    }

    public Report table(Csv csv) {
        md.append("| ").append(String.join(" | ", csv.header())).append(" |\n");
        md.append("|").append(" --- |".repeat(csv.header().size())).append("\n");
        html.append("<table>\n<tr>");
        csv.header().forEach(h -> html.append("<th>").append(esc(h)).append("</th>"));
        html.append("</tr>\n");
        for (List<String> r : csv.rows()) {
            md.append("| ").append(String.join(" | ", r)).append(" |\n");
            html.append("<tr>");
            r.forEach(c -> html.append("<td>").append(esc(c)).append("</td>"));
            html.append("</tr>\n");
        }
        md.append("\n");
        html.append("</table>\n");
        return this;
    }

    /** Links (Markdown) and embeds (HTML) a PNG already written in the report's directory. */
    public Report image(String fileName, String alt) {
        md.append("![").append(alt).append("](").append(fileName).append(")\n\n");
        try {
            String b64 = Base64.getEncoder().encodeToString(Files.readAllBytes(dir.resolve(fileName)));
            html.append("<p><img alt=\"")
                    .append(esc(alt))
                    .append("\" src=\"data:image/png;base64,")
                    .append(b64)
                    .append("\"></p>\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Writes {@code report.md} and {@code report.html} in the directory. */
    public void write() {
        String page = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + esc(title) + "</title>\n"
                + "<style>body{font-family:sans-serif;max-width:980px;margin:2em auto;line-height:1.45}"
                + "table{border-collapse:collapse;font-size:90%}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
                + "img{max-width:100%}pre{background:#f4f4f4;padding:.6em;overflow-x:auto}</style></head><body>\n"
                + html + "</body></html>\n";
        try {
            Files.writeString(dir.resolve("report.md"), md.toString(), StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("report.html"), page, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String inline(String s) {
        return s.replaceAll("\\*\\*(.+?)\\*\\*", "<b>$1</b>").replaceAll("`(.+?)`", "<code>$1</code>");
    }
}
