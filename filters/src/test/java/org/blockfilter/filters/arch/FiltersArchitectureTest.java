package org.blockfilter.filters.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;

/** The layout rules applied to the filters module's production classes. */
class FiltersArchitectureTest {
    private static final JavaClasses FILTERS = ArchitectureRules.productionClasses("org.blockfilter.filters");

    @Test
    void internalPackagesAreUsedOnlyFromTheirParent() {
        ArchitectureRules.internalPackagesAreUsedOnlyFromTheirParent().check(FILTERS);
    }

    @Test
    void filtersHasNoNetworkStorageOrOtherModules() {
        ArchitectureRules.filtersHasNoNetworkStorageOrOtherModules().check(FILTERS);
    }
}
