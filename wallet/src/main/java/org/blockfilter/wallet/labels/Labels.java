package org.blockfilter.wallet.labels;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The wallet's BIP 329 labels, one per (type, reference). Types and reference formats from BIP 329:
 * {@code tx} (txid), {@code addr} (address), {@code pubkey} (hex), {@code input} and {@code output}
 * ({@code txid:vout}), {@code xpub}. Mutable, not thread-safe (the wallet's owner holds it); never
 * returns null.
 */
public final class Labels {
    /** BIP 329's record types. */
    public static final Set<String> TYPES = Set.of("tx", "addr", "pubkey", "input", "output", "xpub");

    /** One label; {@code spendable} only for outputs (BIP 329), null otherwise or when not said. */
    public record Label(String type, String ref, String label, Boolean spendable) {}

    private record Key(String type, String ref) {}

    private final Map<Key, Label> labels = new LinkedHashMap<>();

    /** Sets (or, with an empty text, removes) the label of {@code ref}; throws naming a bad type or reference. */
    public void put(Label l) {
        check(l.type(), l.ref());
        if (l.spendable() != null && !l.type().equals("output")) {
            throw new IllegalArgumentException("'spendable' belongs to output labels only, not to " + l.type());
        }
        Key k = new Key(l.type(), normalise(l.type(), l.ref()));
        if ((l.label() == null || l.label().isEmpty()) && l.spendable() == null) {
            labels.remove(k);
        } else {
            labels.put(k, new Label(l.type(), k.ref(), l.label(), l.spendable()));
        }
    }

    /**
     * Sets the label of a reference of a BIP 329 type ({@code tx}, {@code addr}, {@code output}, ...); an empty label
     * removes it.
     */
    public void put(String type, String ref, String label) {
        put(new Label(type, ref, label, null));
    }

    /** The label of a reference, if it has one. */
    public Optional<Label> get(String type, String ref) {
        return Optional.ofNullable(labels.get(new Key(type, normalise(type, ref))));
    }

    /** The label text of {@code ref}, if any. */
    public Optional<String> text(String type, String ref) {
        return get(type, ref).map(Label::label).filter(s -> !s.isEmpty());
    }

    /** Every label, in the order the references were first labelled. */
    public List<Label> all() {
        return List.copyOf(new ArrayList<>(labels.values()));
    }

    /** Removes every label. */
    public void clear() {
        labels.clear();
    }

    /** How many references have a label. */
    public int size() {
        return labels.size();
    }

    static void check(String type, String ref) {
        if (type == null || !TYPES.contains(type)) {
            throw new IllegalArgumentException(
                    "unknown label type " + type + " (BIP 329 types: tx, addr, pubkey, input, output, xpub)");
        }
        if (ref == null || ref.isEmpty()) {
            throw new IllegalArgumentException("a " + type + " label needs its 'ref'");
        }
        switch (type) {
            case "tx" -> require(ref.matches("[0-9a-fA-F]{64}"), type, ref, "a txid (64 hex digits)");
            case "input", "output" -> require(ref.matches("[0-9a-fA-F]{64}:[0-9]{1,9}"), type, ref, "txid:vout");
            case "pubkey" -> require(ref.matches("([0-9a-fA-F]{2}){32,65}"), type, ref, "a hex public key");
            default -> {}
        }
    }

    private static void require(boolean ok, String type, String ref, String what) {
        if (!ok) {
            throw new IllegalArgumentException("a " + type + " label's ref must be " + what + ", got '" + ref + "'");
        }
    }

    private static String normalise(String type, String ref) {
        return type.equals("tx") || type.equals("input") || type.equals("output") || type.equals("pubkey")
                ? ref.toLowerCase(Locale.ROOT)
                : ref;
    }
}
