package io.tally.core.derive;

import io.tally.core.ItemSchema;
import io.tally.core.events.DomainEvent;
import io.tally.core.events.EventType;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * A domain event every change of an entity announces, declared as data ({@code Declaration.announces}): the event type,
 * the subject (what the event is about: with the record's id and the type, it makes the event's id, {@link
 * DomainEvent#idFor}) and the detail, from the two states. The registry compiles it to a derivation of the entity type
 * that contributes nothing and announces the event, joined with the domain's own derivation and its views'
 * ({@link CombinedDerivation}).
 *
 * @param <T> the entity
 */
public record Announcement<T extends Record>(EventType type, ItemSchema<T> schema, Function<T, String> subject,
                                             Detail<T> detail) {
    /** The detail of the event a change announces, or null for a change that announces none. */
    @FunctionalInterface
    public interface Detail<T> {
        /**
         * @param eventId the event's id, which the detail carries as {@code eventId}
         * @param before  the entity before the change, or null when it was created
         * @param after   the entity after the change, or null when it was deleted
         */
        Record of(String eventId, T before, T after);
    }

    /** The detail of an entity that appears (created), made of its new state; none for any other change. */
    public static <T> Detail<T> created(BiFunction<String, T, ? extends Record> detail) {
        return created((before, after) -> true, detail);
    }

    /**
     * The detail of an entity that appears: created, or replaced by a state that is not {@code same} as the one before
     * (a membership of a later team of the same ids), made of its new state.
     */
    public static <T> Detail<T> created(BiPredicate<T, T> same, BiFunction<String, T, ? extends Record> detail) {
        Objects.requireNonNull(same, "same");
        Objects.requireNonNull(detail, "detail");
        return (eventId, before, after) -> after != null && (before == null || !same.test(after, before))
                ? detail.apply(eventId, after) : null;
    }

    /** The detail of an entity that disappears (removed), made of its last state; none for any other change. */
    public static <T> Detail<T> removed(BiFunction<String, T, ? extends Record> detail) {
        return removed((before, after) -> true, detail);
    }

    /**
     * The detail of an entity that disappears: removed, or replaced by a state that is not {@code same} as it, made of
     * its last state.
     */
    public static <T> Detail<T> removed(BiPredicate<T, T> same, BiFunction<String, T, ? extends Record> detail) {
        Objects.requireNonNull(same, "same");
        Objects.requireNonNull(detail, "detail");
        return (eventId, before, after) -> before != null && (after == null || !same.test(before, after))
                ? detail.apply(eventId, before) : null;
    }

    public Announcement {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(schema, "the entities' schema is null: is the announcement declared in a class that"
                + " the entity's own class initialises from (a cycle of static fields)?");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(detail, "detail");
    }

    /** The derivation it compiles to. */
    public Derivation derivation() {
        return new EntityDerivation<T>(schema.entityType(), schema::fromItem) {
            @Override
            protected Contribution contribution(T entity) {
                return Contribution.NONE;
            }

            @Override
            protected List<DomainEvent> events(String eventId, T before, T after) {
                T either = after != null ? after : before;
                if (either == null) {
                    return List.of();
                }
                String id = DomainEvent.idFor(eventId, type.detailType(), subject.apply(either));
                Record record = detail.of(id, before, after);
                if (record == null) {
                    return List.of();
                }
                if (!type.detail().isInstance(record)) {
                    throw new IllegalArgumentException(type.detailType() + "'s detail is a " + type.detail().getName()
                            + ", not a " + record.getClass().getName());
                }
                return List.of(DomainEvent.of(id, type.detailType(), record));
            }

            @Override
            public String toString() {
                return "announcement of " + type.detailType() + " by " + schema.entityType().attributeValue();
            }
        };
    }
}
