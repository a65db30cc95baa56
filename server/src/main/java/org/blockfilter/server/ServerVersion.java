package org.blockfilter.server;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/** {@code --version}: the project version the build wrote into {@code version.properties}. Stateless. */
final class ServerVersion implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {"blockfilter-server " + version()};
    }

    /** The version, or "unknown" for classes that were not built by Maven. */
    static String version() {
        Properties p = new Properties();
        try (InputStream in = ServerVersion.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            return "unknown";
        }
        String v = p.getProperty("version", "unknown");
        return v.startsWith("${") ? "unknown" : v;
    }
}
