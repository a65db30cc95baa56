package org.blockfilter.wallet;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.blockfilter.filters.arch.ArchitectureRules;
import org.junit.jupiter.api.Test;

/** The shared layout rules applied to the wallet module's production classes. */
class WalletArchitectureTest {
    private static final JavaClasses CLASSES = ArchitectureRules.productionClasses("org.blockfilter.wallet");

    @Test
    void internalPackagesAreUsedOnlyFromTheirParent() {
        ArchitectureRules.internalPackagesAreUsedOnlyFromTheirParent().check(CLASSES);
    }

    @Test
    void walletDependsOnlyOnFilters() {
        ArchitectureRules.walletDependsOnlyOnFilters().check(CLASSES);
    }
}
