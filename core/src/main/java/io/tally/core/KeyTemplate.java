package io.tally.core;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A key pattern that also makes the keys it describes: {@code <partition key> / <sort key>}, each placeholder in angle
 * brackets filled with the value of its name, e.g. {@code USER#<userId> / REVIEW#<itemId>} (a record's components, a
 * path's parameters). A placeholder may instead {@link #spread} items over partitions: its value is the slot one of the
 * other values falls in ({@code BOOKMARKS#<itemId>#<k> / USER#<userId>}, {@code k} of 10 by the user id), so that one
 * item's writers write to several partitions.
 *
 * <p>Immutable.
 */
public final class KeyTemplate {
    private static final Pattern PLACEHOLDER = Pattern.compile("<([^<>]*)>");

    private final String pattern;
    private final String[] halves;
    /** Spread placeholders: their count of slots and the name whose value places an item. */
    private final Map<String, Spread> spreads;

    private record Spread(int count, String from) {
    }

    private KeyTemplate(String pattern, Map<String, Spread> spreads) {
        this.pattern = pattern;
        this.halves = pattern.split(" / ", -1);
        this.spreads = Map.copyOf(spreads);
    }

    /**
     * The template of a pattern.
     *
     * @throws IllegalArgumentException for a pattern that is not {@code <partition key> / <sort key>}, or with an empty
     *                                  or unclosed placeholder
     */
    public static KeyTemplate of(String pattern) {
        Objects.requireNonNull(pattern, "pattern");
        String[] halves = pattern.split(" / ", -1);
        if (halves.length != 2 || halves[0].isEmpty() || halves[1].isEmpty()) {
            throw new IllegalArgumentException("the key pattern '" + pattern + "' is not '<partition key> / <sort key>'");
        }
        for (String half : halves) {
            String rest = PLACEHOLDER.matcher(half).replaceAll("");
            if (half.contains("<>") || rest.contains("<") || rest.contains(">")) {
                throw new IllegalArgumentException("the key pattern '" + pattern + "' has an empty or unclosed"
                        + " placeholder");
            }
        }
        return new KeyTemplate(pattern, Map.of());
    }

    /**
     * This template with {@code placeholder} the slot, 0 to {@code count - 1}, that the value of {@code from} falls in
     * ({@code Math.floorMod(value.hashCode(), count)}: the same slot for the same value on every JVM).
     */
    public KeyTemplate spread(String placeholder, int count, String from) {
        if (!placeholders().contains(placeholder)) {
            throw new IllegalArgumentException("the key pattern '" + pattern + "' has no placeholder <" + placeholder
                    + ">");
        }
        if (count < 1 || placeholder.equals(from)) {
            throw new IllegalArgumentException("a spread of <" + placeholder + "> needs at least one slot and another"
                    + " name to place by");
        }
        Map<String, Spread> more = new TreeMap<>(spreads);
        more.put(placeholder, new Spread(count, Objects.requireNonNull(from, "from")));
        return new KeyTemplate(pattern, more);
    }

    /** The pattern, as written. */
    public String pattern() {
        return pattern;
    }

    /** Its placeholders' names, in the order written (a name written twice, once). */
    public Set<String> placeholders() {
        Set<String> names = new LinkedHashSet<>();
        for (String half : halves) {
            Matcher placeholder = PLACEHOLDER.matcher(half);
            while (placeholder.find()) {
                names.add(placeholder.group(1));
            }
        }
        return names;
    }

    /** The names whose values make a key: each placeholder's, or for a spread one, the name it is placed by. */
    public Set<String> names() {
        Set<String> names = new LinkedHashSet<>();
        for (String placeholder : placeholders()) {
            Spread spread = spreads.get(placeholder);
            names.add(spread == null ? placeholder : spread.from());
        }
        return names;
    }

    /**
     * The key of these values.
     *
     * @throws IllegalArgumentException when a name it needs has no value
     */
    public Key key(Function<String, String> values) {
        List<String> filled = new ArrayList<>(2);
        for (String half : halves) {
            filled.add(PLACEHOLDER.matcher(half).replaceAll(placeholder -> Matcher.quoteReplacement(
                    value(placeholder.group(1), values))));
        }
        return new Key(filled.get(0), filled.get(1));
    }

    private String value(String placeholder, Function<String, String> values) {
        Spread spread = spreads.get(placeholder);
        String name = spread == null ? placeholder : spread.from();
        String value = values.apply(name);
        if (value == null) {
            throw new IllegalArgumentException("the key '" + pattern + "' needs a value for " + name);
        }
        return spread == null ? value : Integer.toString(Math.floorMod(value.hashCode(), spread.count()));
    }

    @Override
    public String toString() {
        return pattern;
    }
}
