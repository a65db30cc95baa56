package org.blockfilter.server;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.blockfilter.filters.arch.ArchitectureRules;
import org.junit.jupiter.api.Test;

/** The shared layout rules applied to the server module's production classes. */
class ServerArchitectureTest {
    private static final JavaClasses CLASSES = ArchitectureRules.productionClasses("org.blockfilter.server");

    @Test
    void internalPackagesAreUsedOnlyFromTheirParent() {
        ArchitectureRules.internalPackagesAreUsedOnlyFromTheirParent().check(CLASSES);
    }

    @Test
    void serverDependsOnlyOnFiltersAndTheEmbeddedNode() {
        ArchitectureRules.serverDependsOnlyOnFiltersAndTheEmbeddedNode().check(CLASSES);
    }
}
