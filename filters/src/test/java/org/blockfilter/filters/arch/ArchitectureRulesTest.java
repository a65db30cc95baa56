package org.blockfilter.filters.arch;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.blockfilter.filters.arch.fixture.inner.internal.Hidden;
import org.blockfilter.filters.arch.fixture.inner.sub.AllowedUser;
import org.blockfilter.filters.arch.fixture.outside.Leak;
import org.junit.jupiter.api.Test;

/** The rules catch what they are for, on fixture classes (the module tests only ever see clean code). */
class ArchitectureRulesTest {

    @Test
    void internalRuleAcceptsUseFromInsideTheParentPackage() {
        JavaClasses ok = new ClassFileImporter().importClasses(Hidden.class, AllowedUser.class);
        assertDoesNotThrow(() ->
                ArchitectureRules.internalPackagesAreUsedOnlyFromTheirParent().check(ok));
    }

    @Test
    void internalRuleRejectsUseFromOutsideTheParentPackage() {
        JavaClasses leaky = new ClassFileImporter().importClasses(Hidden.class, Leak.class);
        AssertionError e = assertThrows(
                AssertionError.class,
                () -> ArchitectureRules.internalPackagesAreUsedOnlyFromTheirParent()
                        .check(leaky));
        assertTrue(
                e.getMessage()
                        .contains("org.blockfilter.filters.arch.fixture.inner.internal is internal to "
                                + "org.blockfilter.filters.arch.fixture.inner, "
                                + "org.blockfilter.filters.arch.fixture.outside is outside it"),
                e.getMessage());
    }

    @Test
    void filtersRuleRejectsNetworkCode() {
        JavaClasses leaky = new ClassFileImporter().importClasses(Leak.class);
        AssertionError e = assertThrows(
                AssertionError.class,
                () -> ArchitectureRules.filtersHasNoNetworkStorageOrOtherModules()
                        .check(leaky));
        assertTrue(e.getMessage().contains("<java.net.URI>"), e.getMessage());
    }

    @Test
    void anEmptyImportIsRefusedRatherThanPassingVacuously() {
        assertThrows(
                IllegalStateException.class, () -> ArchitectureRules.productionClasses("org.blockfilter.nosuchmodule"));
    }
}
