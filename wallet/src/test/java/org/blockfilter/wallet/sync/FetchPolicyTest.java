package org.blockfilter.wallet.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class FetchPolicyTest {
    @ParameterizedTest
    @ValueSource(
            strings = {
                "none",
                "spread",
                "decoys=3",
                "spread,decoys=2,shuffle",
                "shuffle,jitter=200",
                "clusters=2",
                "spread,decoys=2,clusters=1,shuffle"
            })
    void specParsesBackToTheSamePolicy(String spec) {
        FetchPolicy p = FetchPolicy.parse(spec);
        assertEquals(spec, p.spec());
        assertEquals(p, FetchPolicy.parse(p.spec()));
    }

    @org.junit.jupiter.api.Test
    void defaultIsTheDocumentedSpecAndOrderAndCaseDoNotMatter() {
        assertEquals(FetchPolicy.DEFAULT, FetchPolicy.parse("default"));
        assertEquals(FetchPolicy.DEFAULT_SPEC, FetchPolicy.DEFAULT.spec());
        assertEquals(FetchPolicy.parse("spread,decoys=2"), FetchPolicy.parse(" DECOYS=2 , Spread "));
        assertEquals(FetchPolicy.NONE, FetchPolicy.parse("decoys=0"));
        assertEquals(FetchPolicy.NONE, FetchPolicy.parse("clusters=0"));
        assertEquals(FetchPolicy.parse("decoys=1,clusters=2"), FetchPolicy.parse("clusters=2,decoys=1"));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "''|empty fetch policy",
                "decoys|needs an integer 0..16",
                "decoys=x|needs an integer 0..16, got 'x'",
                "decoys=17|must be in 0..16, got 17",
                "decoys=-1|must be in 0..16, got -1",
                "jitter=60001|must be in 0..60000, got 60001",
                "spread=yes|takes no value",
                "spread,spread|given twice",
                "fast|unknown fetch policy item 'fast'",
                "spread,|unknown fetch policy item ''",
                "clusters|'clusters' needs an integer 0..8",
                "clusters=x|'clusters' needs an integer 0..8, got 'x'",
                "clusters=9|'clusters' must be in 0..8, got 9",
                "clusters=-1|'clusters' must be in 0..8, got -1",
                "clusters=1,clusters=2|'clusters' given twice",
                "cluster=1|unknown fetch policy item 'cluster=1'"
            })
    void badSpecsAreRejectedNamingTheItem(String spec, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FetchPolicy.parse(spec));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}
