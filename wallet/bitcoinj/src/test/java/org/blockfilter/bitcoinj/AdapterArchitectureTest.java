package org.blockfilter.bitcoinj;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.blockfilter.filters.arch.ArchitectureRules;
import org.junit.jupiter.api.Test;

/** The shared layout rules, and the adapter's own: the wallet library's sources and sync engine, not its CLI. */
class AdapterArchitectureTest {
    private static final JavaClasses CLASSES = ArchitectureRules.productionClasses("org.blockfilter.bitcoinj");

    @Test
    void internalPackagesAreUsedOnlyFromTheirParent() {
        ArchitectureRules.internalPackagesAreUsedOnlyFromTheirParent().check(CLASSES);
    }

    @Test
    void adapterUsesTheWalletLibraryNotItsCommandLineLedgerOrFiles() {
        noClasses()
                .that()
                .resideInAPackage("org.blockfilter.bitcoinj..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.blockfilter.wallet.cli..",
                        "org.blockfilter.wallet.ledger..",
                        "org.blockfilter.wallet.store..",
                        "org.blockfilter.server..",
                        "org.blockfilter.privacylab..",
                        "org.blockfilter.regtest..")
                .because("the adapter keeps a bitcoinj wallet: bitcoinj's ledger and files, our sources and sync")
                .check(CLASSES);
    }
}
