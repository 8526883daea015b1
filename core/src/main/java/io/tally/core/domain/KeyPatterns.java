package io.tally.core.domain;

import io.tally.core.DerivedType;
import io.tally.core.Key;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The key patterns of derived types ({@link DerivedType#keyPattern}, e.g. {@code SONG#<songId> / DAY#<yyyy-MM-dd>}),
 * held against the keys their functions make and against each other when the registry loads: a pattern that says one
 * thing while the function writes another misleads every reader of the table's design, and two types of one pattern
 * would write each other's items. Pure.
 */
final class KeyPatterns {
    private static final Pattern PLACEHOLDER = Pattern.compile("<([^<>]+)>");
    /** The slot of a slotted type, which the engine places and its key functions do not take as part of a subject. */
    private static final String SLOT = "k";
    /** Values of common shapes a key function may parse, tried when the samples by name are refused. */
    private static final List<String> SHAPES = List.of("2026-01-02", "2026-01", "2026", "1", "s");

    private KeyPatterns() {
    }

    /**
     * Why the type's key function disagrees with its pattern, or empty when the key it makes of a sample subject (one
     * made-up value for each placeholder, joined with {@code #} as views and derivations join them) matches the pattern;
     * also empty for a type keyed by its entity rather than a subject (its function says so by refusing every one).
     */
    static Optional<String> disagreement(DerivedType type) {
        String[] halves = type.keyPattern().split(" / ", -1);
        if (halves.length != 2) {
            return Optional.of("its key pattern '" + type.keyPattern() + "' is not '<partition key> / <sort key>'");
        }
        List<String> names = new ArrayList<>();
        Matcher placeholders = PLACEHOLDER.matcher(type.keyPattern());
        while (placeholders.find()) {
            String name = placeholders.group(1);
            if (!(type.isSlotted() && name.equals(SLOT))) {
                names.add(name);
            }
        }
        // A made-up value for each placeholder, by its name first, then values of common shapes (a key function may
        // parse a date, a year, a number): the first subject the function takes is held against the pattern.
        Key key = null;
        String sample = null;
        RuntimeException refusal = null;
        for (int attempt = 0; attempt <= SHAPES.size() && key == null; attempt++) {
            List<String> values = new ArrayList<>();
            for (int i = 0; i < names.size(); i++) {
                values.add(attempt == 0 ? sample(names.get(i), i) : SHAPES.get(attempt - 1));
            }
            sample = values.isEmpty() ? "0" : String.join("#", values);
            try {
                key = type.key(sample);
            } catch (UnsupportedOperationException keyedByEntity) {
                return Optional.empty();
            } catch (RuntimeException e) {
                refusal = refusal == null ? e : refusal;
            }
        }
        if (key == null) {
            String first = names.isEmpty() ? "0" : String.join("#", names.stream()
                    .map(name -> sample(name, names.indexOf(name))).toList());
            return Optional.of("its key function refuses '" + first + "', a subject its pattern '"
                    + type.keyPattern() + "' allows (and values of other shapes too): " + refusal.getMessage());
        }
        if (!regex(halves[0], type).matcher(key.pk()).matches() || !regex(halves[1], type).matcher(key.sk()).matches()) {
            return Optional.of("its key function makes '" + key.pk() + " / " + key.sk() + "' of '" + sample
                    + "', which its pattern '" + type.keyPattern() + "' does not describe");
        }
        return Optional.empty();
    }

    /**
     * The type whose pattern is this one's but for the placeholders' names, among those seen (and this one entered for
     * the next), or empty.
     */
    static Optional<DerivedType> collision(DerivedType type, Map<String, DerivedType> seen) {
        String shape = PLACEHOLDER.matcher(type.keyPattern()).replaceAll("<>");
        DerivedType earlier = seen.putIfAbsent(shape, type);
        return earlier == null || earlier == type ? Optional.empty() : Optional.of(earlier);
    }

    /** A value a placeholder may hold: a date for a date's, else a made-up id. */
    private static String sample(String name, int index) {
        String lower = name.toLowerCase(java.util.Locale.ROOT);
        if (lower.equals("yyyy-mm-dd") || lower.equals("day") || lower.endsWith("day")) {
            return "2026-01-02";
        }
        if (lower.equals("yyyy-mm") || lower.equals("month")) {
            return "2026-01";
        }
        return "s" + index;
    }

    /** A half of a pattern as a regular expression: its text as it is, each placeholder any non-empty text. */
    private static Pattern regex(String half, DerivedType type) {
        StringBuilder regex = new StringBuilder();
        Matcher placeholder = PLACEHOLDER.matcher(half);
        int at = 0;
        while (placeholder.find()) {
            regex.append(Pattern.quote(half.substring(at, placeholder.start())));
            regex.append(type.isSlotted() && placeholder.group(1).equals(SLOT) ? "\\d+" : ".+");
            at = placeholder.end();
        }
        regex.append(Pattern.quote(half.substring(at)));
        return Pattern.compile(regex.toString());
    }
}
