package org.blockfilter.privacylab.internal.experiments;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.TreeSet;
import org.blockfilter.filters.bloom.BloomMath;
import org.junit.jupiter.api.Test;

/** Experiment 6's 16-bit example, worked by hand. */
class WorkedExampleTest {
    @Test
    void insertedNumbersSetTheHandComputedBits() {
        // 4 -> 4, 19 mod 16 = 3, 31 mod 16 = 15; 9 -> 9, 2, 8; 13 -> 13, 14, 12
        assertArrayEquals(new int[] {4, 3, 15}, WorkedExample.positions(4));
        assertArrayEquals(new int[] {9, 2, 8}, WorkedExample.positions(9));
        assertArrayEquals(new int[] {13, 14, 12}, WorkedExample.positions(13));
        assertEquals(new TreeSet<>(List.of(2, 3, 4, 8, 9, 12, 13, 14, 15)), new WorkedExample().setBits());
    }

    @Test
    void falsePositivesAmongZeroToFifteenAreTheHandComputedOnes() {
        // 2 -> 2, 13, 5 (5 unset); 3 -> 3, 0 (unset); 8 -> 8, 15, 3: all set; 12 -> 12, 11 (unset);
        // 14 -> 14, 1 (unset); 15 -> 15, 4, 6 (unset); 0 -> 0 (unset); 1 -> 1 (unset); 5,6,7,10,11 -> own bit unset.
        assertEquals(List.of(8), new WorkedExample().falsePositives());
        assertEquals(1.0 / 13, new WorkedExample().measuredRate(), 1e-15);
    }

    @Test
    void formulaForTheExample() {
        assertEquals(Math.pow(1 - Math.exp(-9.0 / 16), 3), BloomMath.falsePositiveRate(16, 3, 3), 1e-15);
    }
}
