package org.blockfilter.wallet;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.blockfilter.filters.arch.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * The wallet library is a library: an application that depends on it gets no command-line parser, no SLF4J backend
 * and no logging configuration (a {@code logback.xml} in a dependency takes over every application's logging). The
 * command line, with picocli, logback and its {@code logback.xml}, is the {@code wallet/cli} module. The test
 * classpath holds everything a dependent application would get (and the test dependencies), so what is not here is
 * not there.
 */
class WalletLibraryPackagingTest {
    /** Files that configure a logging backend when found on the classpath. */
    private static final List<String> LOGGING_CONFIGURATION = List.of(
            "logback.xml",
            "logback-test.xml",
            "logback.groovy",
            "log4j2.xml",
            "log4j.properties",
            "simplelogger.properties");

    @Test
    void noLibraryClassUsesTheCommandLineOrALoggingBackend() {
        noClasses()
                .that()
                .resideInAPackage("org.blockfilter.wallet..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("picocli..", "ch.qos.logback..", "org.blockfilter.wallet.cli..")
                .because("the command line is its own module (wallet/cli) and the SLF4J backend is the application's")
                .check(ArchitectureRules.productionClasses("org.blockfilter.wallet"));
    }

    @Test
    void theLibraryBringsNeitherPicocliNorAnSlf4jBackend() {
        List<String> present = new ArrayList<>();
        for (String name : List.of(
                "picocli.CommandLine", "ch.qos.logback.classic.LoggerContext", "org.slf4j.simple.SimpleLogger")) {
            try {
                Class.forName(name, false, getClass().getClassLoader());
                present.add(name);
            } catch (ClassNotFoundException expected) {
                // not a dependency of the library, as it should be
            }
        }
        assertEquals(List.of(), present, "the wallet library's dependencies bring these (see wallet/pom.xml)");
    }

    @Test
    void theLibraryCarriesNoLoggingConfiguration() throws IOException {
        List<URL> found = new ArrayList<>();
        for (String file : LOGGING_CONFIGURATION) {
            found.addAll(Collections.list(getClass().getClassLoader().getResources(file)));
        }
        assertEquals(
                List.of(),
                found,
                "a logging configuration on the library's classpath (a stale copy in target/classes from an older"
                        + " build goes with mvn clean)");
    }
}
