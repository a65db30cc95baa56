package org.blockfilter.regtest;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.blockfilter.filters.arch.ArchitectureRules;
import org.junit.jupiter.api.Test;

/** The shared layout rules applied to the embedded node's production classes (node, scenario generator). */
class EmbeddedNodeArchitectureTest {
    private static final JavaClasses CLASSES = ArchitectureRules.productionClasses("org.blockfilter.regtest");

    @Test
    void internalPackagesAreUsedOnlyFromTheirParent() {
        ArchitectureRules.internalPackagesAreUsedOnlyFromTheirParent().check(CLASSES);
    }

    @Test
    void embeddedNodeDoesNotDependOnTheServer() {
        ArchitectureRules.embeddedNodeDoesNotDependOnTheServer().check(CLASSES);
    }
}
