package org.blockfilter.bitcoinj;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.blockfilter.filters.arch.ApiDocs;
import org.junit.jupiter.api.Test;

/** Every public type, constructor, method and field of the adapter has Javadoc (the internal package aside). */
class AdapterApiDocsTest {
    @Test
    void everyPublicDeclarationOfTheAdapterIsDocumented() {
        List<String> missing = ApiDocs.undocumented(Path.of("src/main/java"), pkg -> !pkg.contains(".internal"));

        assertEquals(List.of(), missing, "undocumented public API (write the Javadoc):\n" + String.join("\n", missing));
    }
}
