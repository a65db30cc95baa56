package org.blockfilter.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One example's {@code main} run in a child JVM on the test class path, as an application would run it. */
record ExampleRun(int exitCode, String out, String err) {
    /** Each example syncs or walks a 150-block chain; generous for a loaded machine. */
    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static ExampleRun of(Path dir, Class<?> example, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(java(), "-cp", System.getProperty("java.class.path")));
        cmd.add(example.getName());
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(dir, example.getSimpleName(), ".out");
        Path err = Files.createTempFile(dir, example.getSimpleName(), ".err");
        Process p = new ProcessBuilder(cmd)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!p.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor();
        }
        return new ExampleRun(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- stdout\n" + out + "\n--- stderr (tail)\n"
                + (err.length() > 4000 ? "..." + err.substring(err.length() - 4000) : err);
    }
}
