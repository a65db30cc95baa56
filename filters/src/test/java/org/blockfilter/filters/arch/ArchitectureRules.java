package org.blockfilter.filters.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The layout rules every module's {@code *ArchitectureTest} applies to its own production classes
 * (README: "Dependencies point one way"; STYLE.md: "Code that is not API goes in an internal
 * package"). Shared through the filters test-jar. Stateless; each rule is a fresh immutable value.
 */
public final class ArchitectureRules {
    private ArchitectureRules() {}

    /** Network and storage packages that {@code filters} must not use. */
    static final String[] NETWORK_AND_STORAGE = {
        "java.net..",
        "java.net.http..",
        "java.nio.channels..",
        "java.sql..",
        "org.rocksdb..",
        "io.javalin..",
        "org.eclipse.jetty.."
    };

    /** Servers, storage engines and HTTP frameworks a light wallet must not carry. */
    static final String[] SERVER_SIDE_LIBRARIES = {"org.rocksdb..", "io.javalin..", "org.eclipse.jetty.."};

    /** The packages of the embedded regtest node, which the server's demo may use. */
    static final String[] EMBEDDED_NODE = {"org.blockfilter.regtest.embedded..", "org.blockfilter.regtest.scenario.."};

    /** The production classes (no tests, no jars) of the packages under {@code rootPackage}. */
    public static JavaClasses productionClasses(String rootPackage) {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                .importPackages(rootPackage);
        // The rules allow an empty "that()" so that one module's test can apply another module's
        // rule; an empty import would then pass vacuously, so refuse it here.
        if (classes.isEmpty()) {
            throw new IllegalStateException("no production classes found under " + rootPackage);
        }
        return classes;
    }

    private static final Pattern INTERNAL = Pattern.compile("^(.*?)\\.internal(\\..*)?$");

    /**
     * A class in {@code a.b.internal} (or below it) is used only from {@code a.b} and its
     * subpackages.
     */
    public static ArchRule internalPackagesAreUsedOnlyFromTheirParent() {
        return classes()
                .should(new ArchCondition<JavaClass>("use an internal package only from inside its parent package") {
                    @Override
                    public void check(JavaClass origin, ConditionEvents events) {
                        String from = origin.getPackageName();
                        for (Dependency d : origin.getDirectDependenciesFromSelf()) {
                            String to =
                                    d.getTargetClass().getBaseComponentType().getPackageName();
                            Matcher m = INTERNAL.matcher(to);
                            if (!m.matches() || !to.startsWith("org.blockfilter.")) {
                                continue;
                            }
                            String parent = m.group(1);
                            if (!from.equals(parent) && !from.startsWith(parent + ".")) {
                                events.add(SimpleConditionEvent.violated(
                                        d,
                                        d.getDescription() + ": " + to + " is internal to " + parent + ", " + from
                                                + " is outside it"));
                            }
                        }
                    }
                })
                .allowEmptyShould(true);
    }

    /** {@code filters} knows math and wire formats: no network, no storage, no other blockfilter module. */
    public static ArchRule filtersHasNoNetworkStorageOrOtherModules() {
        return noClasses()
                .that()
                .resideInAPackage("org.blockfilter.filters..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(NETWORK_AND_STORAGE)
                .orShould()
                .dependOnClassesThat(DescribedPredicate.and(
                        JavaClass.Predicates.resideInAPackage("org.blockfilter.."),
                        DescribedPredicate.not(JavaClass.Predicates.resideInAPackage("org.blockfilter.filters.."))))
                .because("filters knows the math and the wire formats and nothing about networks or storage")
                .allowEmptyShould(true);
    }

    /** The server builds on filters (and the embedded node for its demo), never on the wallet, the lab or the harnesses. */
    public static ArchRule serverDependsOnlyOnFiltersAndTheEmbeddedNode() {
        return noClasses()
                .that()
                .resideInAPackage("org.blockfilter.server..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.blockfilter.wallet..", "org.blockfilter.privacylab..")
                .orShould()
                .dependOnClassesThat(DescribedPredicate.and(
                        JavaClass.Predicates.resideInAPackage("org.blockfilter.regtest.."),
                        DescribedPredicate.not(JavaClass.Predicates.resideInAnyPackage(EMBEDDED_NODE))))
                .because("dependencies point one way: filters <- server <- regtest")
                .allowEmptyShould(true);
    }

    /** The wallet builds on filters only and carries no server-side library. */
    public static ArchRule walletDependsOnlyOnFilters() {
        return noClasses()
                .that()
                .resideInAPackage("org.blockfilter.wallet..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.blockfilter.server..", "org.blockfilter.privacylab..", "org.blockfilter.regtest..")
                .orShould()
                .dependOnClassesThat()
                .resideInAnyPackage(SERVER_SIDE_LIBRARIES)
                .because("the wallet is a light client: filters <- wallet, without RocksDB, Javalin or Jetty")
                .allowEmptyShould(true);
    }

    /**
     * The privacy lab builds on filters, (experiment 8 runs the real sync engine) the wallet and (experiment 5's chain
     * shares its distributions) the mainnet-profile generator's public API, never on the server or the other regtest
     * modules; the wallet's, server's and profile's rules keep anything from depending on the lab.
     */
    public static ArchRule privacyLabDependsOnlyOnFiltersAndTheWallet() {
        return noClasses()
                .that()
                .resideInAPackage("org.blockfilter.privacylab..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.blockfilter.server..")
                .orShould()
                .dependOnClassesThat(DescribedPredicate.and(
                        JavaClass.Predicates.resideInAPackage("org.blockfilter.regtest.."),
                        DescribedPredicate.not(JavaClass.Predicates.resideInAPackage(MAINNET_PROFILE_API))))
                .because("dependencies point one way: filters <- wallet <- privacy-lab; mainnet-profile <- privacy-lab")
                .allowEmptyShould(true);
    }

    /** The mainnet-profile generator's API package (its {@code internal} package is not API). */
    static final String MAINNET_PROFILE_API = "org.blockfilter.regtest.mainnet";

    /** The embedded regtest node stands alone so the server's demo can use it: it never uses the server. */
    public static ArchRule embeddedNodeDoesNotDependOnTheServer() {
        return noClasses()
                .that()
                .resideInAnyPackage(EMBEDDED_NODE)
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.blockfilter.server..")
                .because("the server's demo runs on the embedded node, so the node must not depend on the server")
                .allowEmptyShould(true);
    }
}
