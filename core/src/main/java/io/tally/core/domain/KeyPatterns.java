package io.tally.core.domain;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.Key;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The key patterns of derived types ({@link DerivedType#keyPattern}, e.g. {@code SONG#<songId> / DAY#<yyyy-MM-dd>})
 * and of base types ({@link Declaration#keyPatterns}), held against the keys their functions make (a derived type's)
 * and against each other when the registry loads: a pattern that says one thing while the function writes another
 * misleads every reader of the table's design, and two types of one pattern would write, or read, each other's items.
 * Pure.
 */
final class KeyPatterns {
    private static final Pattern PLACEHOLDER = Pattern.compile("<([^<>]+)>");
    /** The slot of a slotted type, which the engine places and its key functions do not take as part of a subject. */
    private static final String SLOT = "k";
    /** Values of common shapes a key function may parse, tried when the samples by name are refused. */
    private static final List<String> SHAPES = List.of("2026-01-02", "2026-01", "2026", "1", "s");

    private KeyPatterns() {
    }

    /** What a type's key function makes of a sample subject: the key and the subject, or why there is none. */
    private record Sample(Key key, String subject, String refusal, boolean keyedByEntity) {
    }

    /**
     * The key the type's function makes of a sample subject: one made-up value for each placeholder (joined with
     * {@code #}, as views and derivations join them), by its name first, then values of common shapes (a key function
     * may parse a date, a year, a number); none for a type keyed by its entity rather than a subject (its function says
     * so by refusing every one).
     */
    private static Sample sample(DerivedType type) {
        List<String> names = new ArrayList<>();
        Matcher placeholders = PLACEHOLDER.matcher(type.keyPattern());
        while (placeholders.find()) {
            String name = placeholders.group(1);
            if (!(type.isSlotted() && name.equals(SLOT))) {
                names.add(name);
            }
        }
        RuntimeException refusal = null;
        for (int attempt = 0; attempt <= SHAPES.size(); attempt++) {
            List<String> values = new ArrayList<>();
            for (int i = 0; i < names.size(); i++) {
                values.add(attempt == 0 ? sample(names.get(i), i) : SHAPES.get(attempt - 1));
            }
            String subject = values.isEmpty() ? "0" : String.join("#", values);
            try {
                return new Sample(type.key(subject), subject, null, false);
            } catch (UnsupportedOperationException keyedByEntity) {
                return new Sample(null, subject, null, true);
            } catch (RuntimeException e) {
                refusal = refusal == null ? e : refusal;
            }
        }
        List<String> first = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            first.add(sample(names.get(i), i));
        }
        return new Sample(null, first.isEmpty() ? "0" : String.join("#", first), refusal.getMessage(), false);
    }

    /**
     * Why the type's key function disagrees with its pattern, or empty when the key it makes of a sample subject
     * matches the pattern; also empty for a type keyed by its entity rather than a subject.
     */
    static Optional<String> disagreement(DerivedType type) {
        if (type.keyPattern().split(" / ", -1).length != 2) {
            return Optional.of("its key pattern '" + type.keyPattern() + "' is not '<partition key> / <sort key>'");
        }
        Sample sample = sample(type);
        if (sample.keyedByEntity()) {
            return Optional.empty();
        }
        if (sample.key() == null) {
            return Optional.of("its key function refuses '" + sample.subject() + "', a subject its pattern '"
                    + type.keyPattern() + "' allows (and values of other shapes too): " + sample.refusal());
        }
        if (!describes(type, sample.key())) {
            return Optional.of("its key function makes '" + sample.key().pk() + " / " + sample.key().sk() + "' of '"
                    + sample.subject() + "', which its pattern '" + type.keyPattern() + "' does not describe");
        }
        return Optional.empty();
    }

    /**
     * A type seen before whose items this one's keys could be, or the other way round, or empty: their patterns are
     * one but for the placeholders' names, or the key one's function makes of a sample subject (for a base type, the
     * key its pattern makes of sample values) is one the other's pattern describes ({@code TEAM#<teamId> / #STATS#} and
     * {@code TEAM#<teamId> / <kind>}). This one is entered for the next.
     */
    static Optional<Seen> collision(Seen type, Map<String, Seen> seen) {
        String shape = PLACEHOLDER.matcher(type.pattern()).replaceAll("<>");
        Seen same = seen.get(shape);
        if (same != null && !same.name().equals(type.name())) {
            return Optional.of(same);
        }
        for (Seen other : seen.values()) {
            if (other.name().equals(type.name())) {
                continue;
            }
            if (type.sample() != null && describes(other, type.sample())
                    || other.sample() != null && describes(type, other.sample())) {
                return Optional.of(other);
            }
        }
        seen.put(shape, type);
        return Optional.empty();
    }

    /**
     * A type {@link #collision} has seen: its name, its key pattern, whether it is slotted, and its sample key (null for
     * one keyed by its entity), made once.
     */
    record Seen(String name, String pattern, boolean slotted, Key sample) {
        /** A derived type, with the key its function makes of a sample subject. */
        static Seen of(DerivedType type) {
            return new Seen(type.name(), type.keyPattern(), type.isSlotted(), KeyPatterns.sample(type).key());
        }

        /** A base type's pattern ({@code Declaration.keyPatterns}), with the key it makes of sample values. */
        static Seen of(EntityType type, String pattern) {
            return new Seen(type.attributeValue(), pattern, false, sampleKey(pattern));
        }
    }

    /**
     * Why a base type's key function (a lookup's, a resource's) disagrees with the type's patterns, or empty when one of
     * them describes the key it made of sample ids.
     *
     * @param function what made the key, for the message: {@code "its lookup"}, say
     * @param ids      the sample ids it was given, for the message
     */
    static Optional<String> disagreement(EntityType type, List<String> patterns, String function, Key key,
                                         String ids) {
        for (String pattern : patterns) {
            if (describes(new Seen(type.attributeValue(), pattern, false, null), key)) {
                return Optional.empty();
            }
        }
        return Optional.of(function + " makes '" + key.pk() + " / " + key.sk() + "' of " + ids + ", which "
                + (patterns.size() == 1 ? "its key pattern '" + patterns.get(0) + "' does not" : "none of its key"
                + " patterns " + patterns + "") + " describe");
    }

    /** A made-up id for the parameter at this index, as the patterns' placeholders are filled. */
    static String sampleId(String name, int index) {
        return sample(name, index);
    }

    /** Why a base type's pattern is no key pattern, or empty. */
    static Optional<String> malformed(String pattern) {
        return pattern.split(" / ", -1).length == 2 && !pattern.contains("<>") ? Optional.empty()
                : Optional.of("its key pattern '" + pattern + "' is not '<partition key> / <sort key>'");
    }

    /** The key a pattern describes with a sample value in each placeholder. */
    private static Key sampleKey(String pattern) {
        String[] halves = pattern.split(" / ", -1);
        int[] index = {0};
        String[] filled = new String[2];
        for (int half = 0; half < 2; half++) {
            filled[half] = PLACEHOLDER.matcher(halves[half]).replaceAll(m -> Matcher.quoteReplacement(
                    sample(m.group(1), index[0]++)));
        }
        return new Key(filled[0], filled[1]);
    }

    /** Whether the key is one the type's pattern describes. */
    private static boolean describes(DerivedType type, Key key) {
        return describes(new Seen(type.name(), type.keyPattern(), type.isSlotted(), null), key);
    }

    /** Whether the key is one the pattern describes. */
    private static boolean describes(Seen type, Key key) {
        String[] halves = type.pattern().split(" / ", -1);
        return halves.length == 2 && regex(halves[0], type.slotted()).matcher(key.pk()).matches()
                && regex(halves[1], type.slotted()).matcher(key.sk()).matches();
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
    private static Pattern regex(String half, boolean slotted) {
        StringBuilder regex = new StringBuilder();
        Matcher placeholder = PLACEHOLDER.matcher(half);
        int at = 0;
        while (placeholder.find()) {
            regex.append(Pattern.quote(half.substring(at, placeholder.start())));
            regex.append(slotted && placeholder.group(1).equals(SLOT) ? "\\d+" : ".+");
            at = placeholder.end();
        }
        regex.append(Pattern.quote(half.substring(at)));
        return Pattern.compile(regex.toString());
    }
}
