package org.blockfilter.wallet.cli;

import org.blockfilter.wallet.sync.FetchPolicy;
import picocli.CommandLine;

/** Parses {@code --fetch-policy}; a bad spec is a usage error naming the bad item. */
final class FetchPolicyConverter implements CommandLine.ITypeConverter<FetchPolicy> {
    @Override
    public FetchPolicy convert(String value) {
        try {
            return FetchPolicy.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
