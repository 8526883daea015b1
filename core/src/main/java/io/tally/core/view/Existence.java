package io.tally.core.view;

import io.tally.core.EntityType;
import io.tally.core.http.ApiException;
import java.util.Objects;

/**
 * What a view's route answers for a group that has no derived item (nothing counted there yet): zeros, or 404
 * {@code not_found} unless something else says the group exists.
 */
public final class Existence {
    private enum Rule { ZEROS, COUNTED, ENTITY }

    private final Rule rule;
    private final EntityType entity;
    private final String description;

    private Existence(Rule rule, EntityType entity, String description) {
        this.rule = rule;
        this.entity = entity;
        this.description = description;
    }

    /** Every group reads, as zeros when nothing is counted. */
    public static Existence zeros() {
        return new Existence(Rule.ZEROS, null, null);
    }

    /**
     * A group exists once something was counted in it: 404 before, {@code "<description> '<id>' does not exist"} (the
     * ids joined with '/' for a group of several fields); its
     * item stays, at zero, when the last entity goes, so it answers zeros after. Caveat: a rebuild from the base items
     * cannot tell such a group from one never counted ({@code verify} takes an item whose counters are all zero as
     * absent, and a repair does not write one), so after a restore and a repair it answers 404 again.
     */
    public static Existence counted(String description) {
        return new Existence(Rule.COUNTED, null, Objects.requireNonNull(description, "description"));
    }

    /**
     * A group exists while the entity of its id does ({@link Entities}: the entity type's lookup,
     * declared by its domain): zeros for one with nothing counted, 404 for an id that names nothing. For a group of
     * several fields, the entity is that of its first field's id (a user's figures per type: the user).
     */
    public static Existence of(EntityType entity, String description) {
        return new Existence(Rule.ENTITY, Objects.requireNonNull(entity, "entity"),
                Objects.requireNonNull(description, "description"));
    }

    /** The entity type whose lookup says whether a group exists, for {@link #of}. */
    public java.util.Optional<EntityType> entity() {
        return java.util.Optional.ofNullable(entity);
    }

    /** Whether an entity exists, by its type and id (the domains' lookups: {@code RouteContext.exists}). */
    @FunctionalInterface
    public interface Entities {
        boolean exists(EntityType entityType, String id);
    }

    /** Throws 404 unless a group without a derived item exists; {@code ids}: the group's, in the view's order. */
    void check(Entities entities, java.util.List<String> ids) {
        switch (rule) {
            case ZEROS -> { }
            case COUNTED -> throw ApiException.notFound(description + " '" + String.join("/", ids)
                    + "' does not exist");
            case ENTITY -> {
                if (!entities.exists(entity, ids.get(0))) {
                    throw ApiException.notFound(description + " '" + ids.get(0) + "' does not exist");
                }
            }
            default -> throw new IllegalStateException(rule.name());
        }
    }

    @Override
    public String toString() {
        return rule == Rule.ZEROS ? "zeros" : rule == Rule.COUNTED ? "counted " + description
                : "while " + entity.attributeValue() + " exists";
    }
}
