package org.blockfilter.wallet.descriptor;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.bitcoinj.base.Network;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.wallet.keys.AddressDecoder;
import org.blockfilter.wallet.keys.KeyFormatException;

/**
 * Recursive-descent reader of descriptor text (checksum already removed) into an {@link Expr},
 * enforcing where each function may appear (BIP 381-386) and the limits on keys. Stateless.
 */
final class DescriptorParser {
    /** Where an expression sits: it decides which functions and which keys are allowed. */
    private enum Context {
        TOP("at the top level"),
        SH("inside sh()"),
        WSH("inside wsh()"),
        TAP("inside a tr() script tree");

        final String where;

        Context(String where) {
            this.where = where;
        }
    }

    /** Functions Bitcoin Core knows that this wallet does not implement: named as such, not as unknown. */
    private static final Set<String> UNSUPPORTED =
            Set.of("combo", "multi_a", "sortedmulti_a", "rawtr", "musig", "and_v", "or_d", "thresh", "older", "after");

    /** BIP 383: bare multisig holds at most 3 keys, P2SH at most 15 (the 520-byte script limit), otherwise 20. */
    static final int MAX_BARE_MULTI_KEYS = 3;

    static final int MAX_SH_MULTI_KEYS = 15;
    static final int MAX_MULTI_KEYS = 20;
    /** BIP 16's limit on a redeem script. */
    static final int MAX_REDEEM_SCRIPT_BYTES = 520;

    private final Network network;

    private DescriptorParser(Network network) {
        this.network = network;
    }

    static Expr parse(String text, Network network) {
        if (text.isEmpty()) {
            throw new DescriptorException("empty descriptor");
        }
        return new DescriptorParser(network).script(text, Context.TOP);
    }

    private Expr script(String s, Context ctx) {
        int open = s.indexOf('(');
        if (open < 0 || !s.endsWith(")")) {
            throw new DescriptorException("'" + DescriptorKey.abbreviate(s) + "' " + ctx.where
                    + " is not a script expression name(...)" + (open < 0 ? "" : ": a ')' is missing or misplaced"));
        }
        String name = s.substring(0, open);
        String body = s.substring(open + 1, s.length() - 1);
        List<String> args = split(body, s);
        return switch (name) {
            case "pk" -> {
                one(name, args);
                DescriptorKey k = key(args.get(0), name, ctx, false);
                yield new Expr.Pk(k, ctx == Context.TAP);
            }
            case "pkh" -> {
                one(name, args);
                notIn(name, ctx, Context.TAP);
                yield new Expr.Pkh(key(args.get(0), name, ctx, false));
            }
            case "wpkh" -> {
                one(name, args);
                notIn(name, ctx, Context.WSH, Context.TAP);
                yield new Expr.Wpkh(key(args.get(0), name, ctx, true));
            }
            case "sh" -> {
                one(name, args);
                notIn(name, ctx, Context.SH, Context.WSH, Context.TAP);
                Expr inner = script(args.get(0), Context.SH);
                yield new Expr.Sh(inner);
            }
            case "wsh" -> {
                one(name, args);
                notIn(name, ctx, Context.WSH, Context.TAP);
                yield new Expr.Wsh(script(args.get(0), Context.WSH));
            }
            case "multi", "sortedmulti" -> multi(name, args, ctx);
            case "tr" -> tr(args, ctx);
            case "raw" -> {
                one(name, args);
                notIn(name, ctx, Context.SH, Context.WSH, Context.TAP);
                String hex = args.get(0);
                if (!hex.matches("([0-9a-fA-F]{2})+")) {
                    throw new DescriptorException("raw(" + DescriptorKey.abbreviate(hex) + ") is not hex");
                }
                yield new Expr.Fixed("raw", hex, HexFormat.of().parseHex(hex));
            }
            case "addr" -> {
                one(name, args);
                notIn(name, ctx, Context.SH, Context.WSH, Context.TAP);
                try {
                    byte[] script = ScriptBuilder.createOutputScript(AddressDecoder.decode(args.get(0), network))
                            .program();
                    yield new Expr.Fixed("addr", args.get(0), script);
                } catch (KeyFormatException e) {
                    throw new DescriptorException("addr(): " + e.getMessage(), e);
                }
            }
            default ->
                throw new DescriptorException((UNSUPPORTED.contains(name)
                                ? name + "() is not supported by this wallet"
                                : "unknown function '" + name + "'")
                        + " in '" + DescriptorKey.abbreviate(s)
                        + "' (supported: pk, pkh, wpkh, sh, wsh, multi, sortedmulti, tr, raw, addr)");
        };
    }

    private Expr multi(String name, List<String> args, Context ctx) {
        notIn(name, ctx, Context.TAP);
        if (args.size() < 2) {
            throw new DescriptorException(name + "() needs a threshold and at least one key");
        }
        String k = args.get(0);
        if (!k.matches("[0-9]{1,3}")) {
            throw new DescriptorException(name + "() threshold '" + k + "' is not a number");
        }
        int threshold = Integer.parseInt(k);
        int n = args.size() - 1;
        int max = ctx == Context.TOP ? MAX_BARE_MULTI_KEYS : ctx == Context.SH ? MAX_SH_MULTI_KEYS : MAX_MULTI_KEYS;
        if (n > max) {
            throw new DescriptorException(
                    name + "() " + ctx.where + " has " + n + " keys; at most " + max + " are allowed there (BIP 383)");
        }
        if (threshold < 1 || threshold > n) {
            throw new DescriptorException(
                    name + "() threshold " + threshold + " is outside 1.." + n + " (the number of keys)");
        }
        List<DescriptorKey> keys = new ArrayList<>();
        for (int i = 1; i < args.size(); i++) {
            keys.add(key(args.get(i), name, ctx, false));
        }
        return new Expr.Multi(threshold, keys, name.equals("sortedmulti"));
    }

    private Expr tr(List<String> args, Context ctx) {
        notIn("tr", ctx, Context.SH, Context.WSH, Context.TAP);
        if (args.isEmpty() || args.size() > 2) {
            throw new DescriptorException(
                    "tr() takes a key and optionally a script tree, got " + args.size() + " arguments");
        }
        DescriptorKey key = key(args.get(0), "tr", Context.TAP, true);
        return new Expr.Tr(key, args.size() == 2 ? tree(args.get(1)) : null);
    }

    private Expr.Tree tree(String s) {
        if (s.startsWith("{")) {
            if (!s.endsWith("}")) {
                throw new DescriptorException("script tree '" + DescriptorKey.abbreviate(s) + "' has no closing }");
            }
            List<String> parts = split(s.substring(1, s.length() - 1), s);
            if (parts.size() != 2) {
                throw new DescriptorException("a script tree branch {A,B} has two parts, '"
                        + DescriptorKey.abbreviate(s) + "' has " + parts.size());
            }
            return new Expr.Tree(null, tree(parts.get(0)), tree(parts.get(1)));
        }
        Expr leaf = script(s, Context.TAP);
        if (!(leaf instanceof Expr.Pk)) {
            throw new DescriptorException("'" + DescriptorKey.abbreviate(s) + "' " + Context.TAP.where
                    + ": only pk() leaves are supported in a tr() script tree");
        }
        return new Expr.Tree(leaf, null, null);
    }

    private DescriptorKey key(String text, String function, Context ctx, boolean segwit) {
        if (text.contains("(")) {
            throw new DescriptorException(
                    function + "() takes a key, not a script: '" + DescriptorKey.abbreviate(text) + "'");
        }
        DescriptorKey k = DescriptorKeyParser.parse(text, network, ctx == Context.TAP);
        if (k.uncompressed() && (segwit || ctx == Context.WSH || ctx == Context.TAP)) {
            throw new DescriptorException("uncompressed public key " + DescriptorKey.abbreviate(text) + " in "
                    + function + "()" + (ctx == Context.TOP || function.equals("tr") ? "" : " " + ctx.where)
                    + ": segwit and taproot take compressed keys only");
        }
        return k;
    }

    private static void one(String name, List<String> args) {
        if (args.size() != 1) {
            throw new DescriptorException(name + "() takes one argument, got " + args.size());
        }
    }

    private static void notIn(String name, Context ctx, Context... refused) {
        for (Context c : refused) {
            if (c == ctx) {
                throw new DescriptorException(name + "() is not allowed " + ctx.where);
            }
        }
    }

    /** Splits at the commas that are not inside () or {}. */
    private static List<String> split(String body, String whole) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '(' || c == '{') {
                depth++;
            } else if (c == ')' || c == '}') {
                if (--depth < 0) {
                    throw new DescriptorException(
                            "unbalanced '" + c + "' in '" + DescriptorKey.abbreviate(whole) + "'");
                }
            } else if (c == ',' && depth == 0) {
                out.add(body.substring(start, i));
                start = i + 1;
            }
        }
        if (depth != 0) {
            throw new DescriptorException("unbalanced parentheses in '" + DescriptorKey.abbreviate(whole) + "'");
        }
        out.add(body.substring(start));
        if (out.size() == 1 && out.get(0).isEmpty()) {
            return List.of();
        }
        for (String a : out) {
            if (a.isEmpty()) {
                throw new DescriptorException("empty argument in '" + DescriptorKey.abbreviate(whole) + "'");
            }
        }
        return out;
    }
}
