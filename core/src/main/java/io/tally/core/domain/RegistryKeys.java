package io.tally.core.domain;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.Key;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * The registry's check of the table's keys as the domains load ({@link KeyPatterns}): each derived type's pattern
 * against its key function, each base type's pattern for its form and against the key functions the domain declares
 * for the type (its lookups' and its resources'), and every type's keys, base and derived, against every other's seen
 * so far. Refusals name the domain.
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
        for (Lookup lookup : domain.lookups()) {
            String id = KeyPatterns.sampleId("id", 0);
            agrees(domain, lookup.type(), "its lookup of " + lookup.type(), () -> lookup.key(id), "the id '" + id + "'");
        }
        for (EntityResource<?> resource : domain.resources()) {
            Map<String, String> ids = resource.sampleIds();
            agrees(domain, resource.entityType(), "its resource at " + resource.path(), () -> resource.key(ids),
                    "the ids " + ids);
        }
    }

    /**
     * A base type's key function against the type's patterns, when the domain declares some: a function that refuses
     * the made-up ids is not held to them (it may take ids of a form of its own).
     */
    private void agrees(Domain domain, EntityType type, String function, Supplier<Key> key, String ids) {
        List<String> patterns = domain.keyPatterns().stream().filter(declared -> declared.type().equals(type))
                .map(KeyPattern::pattern).toList();
        if (patterns.isEmpty()) {
            return;
        }
        Key made;
        try {
            made = key.get();
        } catch (RuntimeException refused) {
            return;
        }
        String why = KeyPatterns.disagreement(type, patterns, function, made, ids).orElse(null);
        if (why != null) {
            throw invalid.apply(domain, type + ": " + why);
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
