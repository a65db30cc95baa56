package org.blockfilter.privacylab;

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
    void privacyLabDependsOnlyOnFiltersAndTheWallet() {
        ArchitectureRules.privacyLabDependsOnlyOnFiltersAndTheWallet().check(CLASSES);
    }
}
