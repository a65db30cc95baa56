package org.blockfilter.wallet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.blockfilter.filters.arch.ApiDocs;
import org.junit.jupiter.api.Test;

/**
 * Every public type, constructor, method, field and enum constant of the wallet library has Javadoc: all packages
 * except the {@code internal} ones.
 */
class WalletApiDocsTest {
    @Test
    void everyPublicDeclarationOfTheLibraryPackagesIsDocumented() {
        List<String> missing = ApiDocs.undocumented(Path.of("src/main/java"), pkg -> !pkg.contains(".internal"));

        assertEquals(List.of(), missing, "undocumented public API (write the Javadoc):\n" + String.join("\n", missing));
    }
}
