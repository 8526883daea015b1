package io.tally.core;

import java.util.List;
import java.util.Objects;

/**
 * A counter one domain adds to a derived item several domains share (a user's stats item, the application-wide
 * totals), and where the read side shows it. The shared item's type declares no counters of its own
 * ({@link DerivedType#hasOpenCounters}); each domain lists its shared counters in its declaration, and the registry
 * of domains puts them together in the domains' order, which is the order the read side shows them in.
 *
 * @param type      the shared derived type
 * @param attribute the attribute of the item, e.g. {@code postsCreated}
 * @param path      where the read side shows it in its JSON object, e.g. {@code ["posts", "created"]}: each name
 *                  but the last is a nested object, made where its first counter stands
 */
public record SharedCounter(DerivedType type, String attribute, List<String> path) {
    public SharedCounter {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(attribute, "attribute");
        path = List.copyOf(path);
        if (!type.hasOpenCounters()) {
            throw new IllegalArgumentException(type + " declares its own counters; '" + attribute + "' is not shared");
        }
        if (!type.isCounter(attribute)) {
            throw new IllegalArgumentException("'" + attribute + "' cannot be a counter of " + type);
        }
        if (path.isEmpty()) {
            throw new IllegalArgumentException(attribute + ": the read side's path is empty");
        }
    }

    /** The counter, shown under its own name. */
    public static SharedCounter of(DerivedType type, String attribute) {
        return new SharedCounter(type, attribute, List.of(attribute));
    }

    /** The same counter shown at {@code path}, e.g. {@code shownAt("posts", "created")}. */
    public SharedCounter shownAt(String... path) {
        return new SharedCounter(type, attribute, List.of(path));
    }
}
