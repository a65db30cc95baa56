package org.blockfilter.wallet.sync;

import java.util.List;
import org.blockfilter.wallet.keys.OutputScript;

/**
 * Scripts the {@link FetchPolicy} adopted as decoys together, kept with the wallet so that every later sync follows
 * them: a lone decoy script ({@code decoys=K}) or the members of a common-input cluster ({@code clusters=K}). A block
 * above {@code adoptedAt} whose filter matches one of the scripts is downloaded (and discarded) as the wallet's own
 * would be. Immutable; no field is null.
 *
 * @param cluster    whether the scripts are a cluster's members (else one lone decoy script)
 * @param adoptedAt  the height of the matched block whose seed block offered them; followed above it
 * @param seedHeight the seed block they were taken from (below {@code adoptedAt})
 * @param scripts    the scripts, one for a lone decoy, 2..{@link FetchPolicy#MAX_CLUSTER_INPUTS} for a cluster
 */
public record DecoyGroup(boolean cluster, int adoptedAt, int seedHeight, List<OutputScript> scripts) {
    public DecoyGroup {
        scripts = List.copyOf(scripts);
        if (scripts.isEmpty() || scripts.size() > FetchPolicy.MAX_CLUSTER_INPUTS) {
            throw new IllegalArgumentException(
                    "a decoy group has 1.." + FetchPolicy.MAX_CLUSTER_INPUTS + " scripts, got " + scripts.size());
        }
        if (!cluster && scripts.size() != 1) {
            throw new IllegalArgumentException("a lone decoy has one script, got " + scripts.size());
        }
        if (seedHeight < 0 || seedHeight >= adoptedAt) {
            throw new IllegalArgumentException("a decoy's seed block " + seedHeight + " must be at 0.."
                    + (adoptedAt - 1) + " (below the block it hides)");
        }
    }
}
