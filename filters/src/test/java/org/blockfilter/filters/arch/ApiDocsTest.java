package org.blockfilter.filters.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Javadoc scan itself: what it flags, what it lets pass, which packages it skips. */
class ApiDocsTest {
    @TempDir
    Path root;

    private void write(String relative, String source) throws IOException {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, source);
    }

    @Test
    void flagsEveryReachableUndocumentedDeclarationAndNothingElse() throws IOException {
        write("p/A.java", """
                package p;

                /** Documented. */
                public final class A {
                    public static final int BARE = 1;
                    /** Documented. */
                    public static final int FINE = 2;
                    private int hidden;

                    public A() {}

                    /** Documented. */
                    public int fine() { return hidden; }

                    public int bare() { return 0; }

                    protected void alsoBare() {}

                    void packagePrivate() {}

                    @Override
                    public String toString() { return ""; }

                    public interface Nested {
                        int implicitlyPublic();
                    }

                    public enum E { ONE, /** Documented. */ TWO }

                    static final class Hidden {
                        public void notReachable() {}
                    }

                    public record R(int x) {
                        public R {}

                        public int x() { return x; }

                        public R(String s) { this(s.length()); }
                    }
                }
                """);
        write("p/internal/I.java", "package p.internal;\npublic class I { public void notApi() {} }\n");

        List<String> found = ApiDocs.undocumented(root, pkg -> !pkg.endsWith(".internal"));

        assertEquals(
                List.of(
                        "p/A.java:5: field BARE",
                        "p/A.java:10: constructor A",
                        "p/A.java:15: method bare",
                        "p/A.java:17: method alsoBare",
                        "p/A.java:24: interface Nested",
                        "p/A.java:25: method implicitlyPublic",
                        "p/A.java:28: enum E",
                        "p/A.java:28: enum constant ONE",
                        "p/A.java:34: record R",
                        "p/A.java:39: constructor R"),
                found);
    }

    @Test
    void anUndocumentedTopLevelTypeIsFlagged() throws IOException {
        write("q/B.java", "package q;\npublic class B {}\n");

        assertEquals(List.of("q/B.java:2: class B"), ApiDocs.undocumented(root, pkg -> true));
    }
}
