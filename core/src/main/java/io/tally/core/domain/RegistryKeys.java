package io.tally.core.domain;

import io.tally.core.DerivedType;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The registry's check of the table's keys as the domains load ({@link KeyPatterns}): each derived type's pattern
 * against its key function, each base type's pattern for its form, and every type's keys, base and derived, against
 * every other's seen so far. Refusals name the domain.
 */
final class RegistryKeys {
    /** Each type's key pattern with the placeholders unnamed ({@link KeyPatterns#collision}). */
    private final Map<String, KeyPatterns.Seen> shapes = new HashMap<>();
    private final BiFunction<Domain, String, RuntimeException> invalid;

    RegistryKeys(BiFunction<Domain, String, RuntimeException> invalid) {
        this.invalid = invalid;
    }

    /** A derived type's pattern: what its key function makes, and no other type's keys. */
    void derived(Domain domain, DerivedType type) {
        String why = KeyPatterns.disagreement(type).orElse(null);
        if (why != null) {
            throw invalid.apply(domain, type + ": " + why);
        }
        check(domain, KeyPatterns.Seen.of(type));
    }

    /** The domain's base key patterns: of its own entity types, of the form, and no other type's keys. */
    void base(Domain domain) {
        for (KeyPattern key : domain.keyPatterns()) {
            if (!domain.entityTypes().contains(key.type())) {
                throw invalid.apply(domain, "it declares the keys of " + key.type() + ", which is not one of its"
                        + " entity types");
            }
            String why = KeyPatterns.malformed(key.pattern()).orElse(null);
            if (why != null) {
                throw invalid.apply(domain, key.type() + ": " + why);
            }
            check(domain, KeyPatterns.Seen.of(key.type(), key.pattern()));
        }
    }

    private void check(Domain domain, KeyPatterns.Seen type) {
        KeyPatterns.Seen clash = KeyPatterns.collision(type, shapes).orElse(null);
        if (clash != null) {
            throw invalid.apply(domain, type.name() + " and " + clash.name() + " have keys in common (patterns '"
                    + type.pattern() + "' and '" + clash.pattern() + "'): each could write the other's items");
        }
    }
}
