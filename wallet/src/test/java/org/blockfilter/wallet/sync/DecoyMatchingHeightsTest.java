package org.blockfilter.wallet.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.Bip158;
import org.blockfilter.filters.gcs.GolombCodedSet;
import org.blockfilter.wallet.keys.OutputScript;
import org.junit.jupiter.api.Test;

/**
 * The heights at which a seed block's candidate groups appear, as decoy adoption counts them: one walk of each filter
 * for every candidate at once gives, per group, the heights whose filter matches one of its scripts, as a match per
 * group does. Forty filters of 300 scripts drawn from a pool of 2,000, so that groups recur across heights; groups of
 * one script (decoys) and of two to four (clusters); heights without a filter are skipped.
 */
class DecoyMatchingHeightsTest {
    @Test
    void oneWalkPerFilterFindsTheHeightsAMatchPerGroupFinds() {
        Random r = new Random(3);
        List<byte[]> pool = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            byte[] s = new byte[22];
            r.nextBytes(s);
            s[0] = 0x00;
            s[1] = 0x14;
            pool.add(s);
        }
        BasicFilter[] filters = new BasicFilter[40];
        for (int h = 0; h < filters.length; h++) {
            if (h == 17) {
                continue; // a height without a filter
            }
            List<byte[]> items = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                items.add(pool.get(r.nextInt(pool.size())));
            }
            Sha256Hash hash = Sha256Hash.of(new byte[] {(byte) h});
            filters[h] = BasicFilter.fromBytes(
                    hash,
                    GolombCodedSet.build(Bip158.BASIC_P, Bip158.BASIC_M, BasicFilter.key(hash), items)
                            .encoded());
        }
        List<List<OutputScript>> groups = new ArrayList<>();
        for (int g = 0; g < 200; g++) {
            List<OutputScript> group = new ArrayList<>();
            for (int i = g < 100 ? 1 : 2 + r.nextInt(3); i > 0; i--) {
                group.add(OutputScript.of(pool.get(r.nextInt(pool.size()))));
            }
            groups.add(group);
        }
        List<List<Integer>> got = BlockFetcher.matchingHeights(groups, 2, 38, h -> filters[h]);
        int nonEmpty = 0;
        for (int g = 0; g < groups.size(); g++) {
            List<Integer> expected = new ArrayList<>();
            for (int h = 2; h <= 38; h++) {
                if (filters[h] != null
                        && filters[h].matchAny(
                                groups.get(g).stream().map(OutputScript::bytes).toList())) {
                    expected.add(h);
                }
            }
            assertEquals(expected, got.get(g), "group " + g);
            nonEmpty += expected.isEmpty() ? 0 : 1;
        }
        assertEquals(true, nonEmpty > 100, "groups must recur for the check to mean something: " + nonEmpty);
    }
}
