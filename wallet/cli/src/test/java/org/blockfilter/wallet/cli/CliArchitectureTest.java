package org.blockfilter.wallet.cli;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.blockfilter.filters.arch.ArchitectureRules;
import org.junit.jupiter.api.Test;

/** The shared layout rules applied to the command line's production classes: a light client over the wallet library. */
class CliArchitectureTest {
    private static final JavaClasses CLASSES = ArchitectureRules.productionClasses("org.blockfilter.wallet.cli");

    @Test
    void internalPackagesAreUsedOnlyFromTheirParent() {
        ArchitectureRules.internalPackagesAreUsedOnlyFromTheirParent().check(CLASSES);
    }

    @Test
    void commandLineDependsOnlyOnTheWalletAndFilters() {
        ArchitectureRules.walletDependsOnlyOnFilters().check(CLASSES);
    }
}
