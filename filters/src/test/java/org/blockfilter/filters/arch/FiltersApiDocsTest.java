package org.blockfilter.filters.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every public type, constructor, method, field and enum constant of the filters API packages has Javadoc. */
class FiltersApiDocsTest {
    @Test
    void everyPublicDeclarationOfTheApiPackagesIsDocumented() {
        List<String> missing = ApiDocs.undocumented(Path.of("src/main/java"), pkg -> !pkg.contains(".internal"));

        assertEquals(List.of(), missing, "undocumented public API (write the Javadoc):\n" + String.join("\n", missing));
    }
}
