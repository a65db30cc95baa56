package org.blockfilter.regtest;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import org.blockfilter.filters.arch.ArchitectureRules;
import org.junit.jupiter.api.Test;

/** The shared layout rules applied to the mainnet-profile generator, which stands alone. */
class MainnetProfileArchitectureTest {
    private static final JavaClasses CLASSES = ArchitectureRules.productionClasses("org.blockfilter.regtest.mainnet");

    @Test
    void internalPackagesAreUsedOnlyFromTheirParent() {
        ArchitectureRules.internalPackagesAreUsedOnlyFromTheirParent().check(CLASSES);
    }

    @Test
    void dependsOnNoOtherBlockfilterModule() {
        ArchRuleDefinition.noClasses()
                .that()
                .resideInAPackage("org.blockfilter.regtest.mainnet..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.blockfilter.filters..",
                        "org.blockfilter.server..",
                        "org.blockfilter.wallet..",
                        "org.blockfilter.privacylab..",
                        "org.blockfilter.regtest.embedded..",
                        "org.blockfilter.regtest.scenario..")
                .because("the server's tests use the profile, so it must not depend on the server or its peers")
                .check(CLASSES);
    }
}
