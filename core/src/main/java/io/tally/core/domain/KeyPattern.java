package io.tally.core.domain;

import io.tally.core.EntityType;
import java.util.Objects;

/**
 * The keys of a domain's base items of one type ({@link Declaration#keyPatterns}), as {@code <partition key> / <sort
 * key>} with placeholders in angle brackets ({@code USER#<userId> / POST#<postId>#<createdAt>}): the registry holds it
 * against every other type's, base and derived, and refuses two that could name one item.
 */
public record KeyPattern(EntityType type, String pattern) {
    public KeyPattern {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(pattern, "pattern");
    }
}
