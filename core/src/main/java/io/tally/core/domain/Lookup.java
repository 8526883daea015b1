package io.tally.core.domain;

import io.tally.core.EntityType;
import io.tally.core.Key;
import java.util.Objects;
import java.util.function.Function;

/**
 * An entity a domain lets other domains find by its id, e.g. the catalogue's items: a domain that builds on
 * another (a review of a catalogue item) asks for the lookup by the entity type's name, and so needs none of the other
 * domain's classes.
 *
 * @param type  the entity type, whose name other domains ask for
 * @param keyOf the key of the entity's item, from its id
 */
public record Lookup(EntityType type, Function<String, Key> keyOf) {
    public Lookup {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(keyOf, "keyOf");
    }

    /** The key of the entity with this id. */
    public Key key(String id) {
        return keyOf.apply(id);
    }
}
