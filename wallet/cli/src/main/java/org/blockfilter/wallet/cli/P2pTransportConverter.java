package org.blockfilter.wallet.cli;

import java.util.Locale;
import org.blockfilter.wallet.source.p2p.P2pTransport;
import picocli.CommandLine;

/** Parses {@code --p2p-transport}: auto, v2 or v1; anything else is a usage error. */
final class P2pTransportConverter implements CommandLine.ITypeConverter<P2pTransport> {
    @Override
    public P2pTransport convert(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "auto" -> P2pTransport.AUTO;
            case "v2" -> P2pTransport.V2;
            case "v1" -> P2pTransport.V1;
            default ->
                throw new CommandLine.TypeConversionException(
                        "--p2p-transport must be auto, v2 or v1, got '" + value + "'");
        };
    }
}
