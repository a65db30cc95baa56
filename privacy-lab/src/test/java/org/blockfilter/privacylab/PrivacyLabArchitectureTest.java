package org.blockfilter.privacylab;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.blockfilter.filters.arch.ArchitectureRules;
import org.junit.jupiter.api.Test;

/** The shared layout rules applied to the privacy-lab module's production classes. */
class PrivacyLabArchitectureTest {
    private static final JavaClasses CLASSES = ArchitectureRules.productionClasses("org.blockfilter.privacylab");

    @Test
    void internalPackagesAreUsedOnlyFromTheirParent() {
        ArchitectureRules.internalPackagesAreUsedOnlyFromTheirParent().check(CLASSES);
    }

    @Test
    void theLabsPackagesHaveNoCycles() {
        slices().matching("org.blockfilter.privacylab.internal.(*)..")
                .should()
                .beFreeOfCycles()
                .check(CLASSES);
    }

    @Test
    void privacyLabDependsOnlyOnFiltersAndTheWallet() {
        ArchitectureRules.privacyLabDependsOnlyOnFiltersAndTheWallet().check(CLASSES);
    }
}
