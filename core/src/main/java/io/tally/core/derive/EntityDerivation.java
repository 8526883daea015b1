package io.tally.core.derive;

import io.tally.core.EntityType;
import io.tally.core.events.DomainEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiPredicate;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A derivation written as the state of one entity: what an item in a state contributes, and which events a change
 * from one state to another announces. The change's effect on derived data is the difference of the two
 * contributions, so an item counted under one shard, status or partition is always uncounted from the same one.
 *
 * <p>The documents of a state carry twice the source's {@link #revision revision}, the removal of a document the
 * new state no longer holds one more than the old state's (see {@link Document}): the order of the records of one
 * item across stream shards then cannot matter.
 *
 * <p>A side that cannot be read contributes nothing, which is what a rebuild from a scan does with such an item: the
 * derived data still equals a recomputation, and the problem sends the record to the dead-letter route. Such a change
 * announces no event of its own; the events that follow from its counter deltas, which are applied, are announced
 * all the same ({@code Domain.counterEvents}).
 *
 * @param <T> the entity, as core's mapper reads it
 */
public abstract class EntityDerivation<T> implements Derivation {
    private final EntityType entityType;
    private final Function<Map<String, AttributeValue>, T> reader;

    /** A derivation that reads its images itself ({@link #read}). */
    protected EntityDerivation(EntityType entityType) {
        this(entityType, null);
    }

    /** A derivation that reads its images with {@code reader}, e.g. {@code Post.SCHEMA::fromItem}. */
    protected EntityDerivation(EntityType entityType, Function<Map<String, AttributeValue>, T> reader) {
        this.entityType = Objects.requireNonNull(entityType, "entityType");
        if (entityType.isDerived()) {
            throw new IllegalArgumentException("derived items must not derive: " + entityType);
        }
        this.reader = reader;
    }

    @Override
    public final EntityType entityType() {
        return entityType;
    }

    /**
     * Reads an image as the entity: with the reader the derivation was made with, unless it reads them itself.
     *
     * @throws RuntimeException (typically {@link io.tally.core.MalformedItemException}) when it cannot
     */
    protected T read(Map<String, AttributeValue> image) {
        if (reader == null) {
            throw new UnsupportedOperationException(getClass().getSimpleName() + " has no reader and reads nothing");
        }
        return reader.apply(image);
    }

    /** What an item in this state contributes to derived data. */
    protected abstract Contribution contribution(T entity);

    /**
     * The revision of the item in this state: at least 0, higher in every later state of the item, also in a
     * re-creation after a delete. Every derivation whose contributions hold documents must say what it is; the
     * default refuses, and a side whose revision is unknown contributes nothing (a problem, as an unreadable image).
     */
    protected long revision(T entity) {
        throw new UnsupportedOperationException(getClass().getSimpleName()
                + " owns documents but does not say the revision of its source");
    }

    /**
     * The domain events of a change both sides of which could be read.
     *
     * @param before the entity before the change, or null
     * @param after  the entity after the change, or null
     */
    protected List<DomainEvent> events(String eventId, T before, T after) {
        return List.of();
    }

    /**
     * The base items a change of this entity removes in turn (e.g. the memberships of a deleted team), when both
     * sides could be read. Each must be idempotent and guarded: see {@link Cascade}.
     *
     * @param before the entity before the change, or null
     * @param after  the entity after the change, or null
     */
    protected List<Cascade> cascades(T before, T after) {
        return List.of();
    }

    /**
     * The cascades that would remove this entity (e.g. those of a membership's team and employee); for a rebuild that
     * looks for cascades that never ran. An entity that names cascades in {@link #cascades} is found by them too:
     * the removal of the entity itself names what it would remove.
     */
    protected List<Cascade> removedBy(T entity) {
        return List.of();
    }

    @Override
    public final CascadeLinks cascadeLinks(Map<String, AttributeValue> image) {
        if (image == null) {
            return CascadeLinks.NONE;
        }
        try {
            T entity = read(image);
            return new CascadeLinks(cascades(entity, null), removedBy(entity));
        } catch (RuntimeException e) {
            // Unreadable: it contributes nothing, as in the stream.
            return CascadeLinks.NONE;
        }
    }

    /** The event of an entity that appeared; none for a change of one that was there, or its removal. */
    protected static <T> List<DomainEvent> created(T before, T after, Function<T, DomainEvent> event) {
        return before == null && after != null ? List.of(event.apply(after)) : List.of();
    }

    /**
     * The event of an entity that appeared ({@code created}) or disappeared ({@code removed}); none for a change of one
     * that stays.
     */
    protected static <T> List<DomainEvent> createdOrRemoved(T before, T after, Function<T, DomainEvent> created,
                                                            Function<T, DomainEvent> removed) {
        if (before == null && after != null) {
            return List.of(created.apply(after));
        }
        if (before != null && after == null) {
            return List.of(removed.apply(before));
        }
        return List.of();
    }

    /**
     * The events of a link that changed: the departure from what it was ({@code left}), then the arrival at what it is
     * ({@code joined}); none for a side that is {@code same} as the other (a change that keeps the link).
     */
    protected static <T> List<DomainEvent> replaced(T before, T after, BiPredicate<T, T> same,
                                                    Function<T, DomainEvent> left, Function<T, DomainEvent> joined) {
        List<DomainEvent> events = new ArrayList<>(2);
        if (before != null && (after == null || !same.test(before, after))) {
            events.add(left.apply(before));
        }
        if (after != null && (before == null || !same.test(after, before))) {
            events.add(joined.apply(after));
        }
        return events;
    }


    @Override
    public final IntendedChanges derive(String eventId, Map<String, AttributeValue> oldImage,
                                        Map<String, AttributeValue> newImage) {
        List<String> problems = new ArrayList<>();
        T before = read(oldImage, "old image", problems);
        T after = read(newImage, "new image", problems);
        boolean readable = problems.isEmpty();
        IntendedChanges changes = IntendedChanges.between(
                contribution(before, "old image", problems), contribution(after, "new image", problems));
        List<DomainEvent> events = new ArrayList<>();
        List<Cascade> cascades = new ArrayList<>();
        if (readable) {
            try {
                events.addAll(events(eventId, before, after));
            } catch (RuntimeException e) {
                problems.add("events: " + describe(e));
            }
            try {
                cascades.addAll(cascades(before, after));
            } catch (RuntimeException e) {
                problems.add("cascades: " + describe(e));
            }
        }
        return new IntendedChanges(changes.counterDeltas(), changes.documents(), events, cascades, problems,
                changes.restated());
    }

    private T read(Map<String, AttributeValue> image, String side, List<String> problems) {
        if (image == null) {
            return null;
        }
        try {
            return read(image);
        } catch (RuntimeException e) {
            problems.add(side + ": " + describe(e));
            return null;
        }
    }

    private Contribution contribution(T entity, String side, List<String> problems) {
        if (entity == null) {
            return Contribution.NONE;
        }
        try {
            Contribution contribution = contribution(entity);
            // Constant documents keep their revision (0), so a source of those alone need not say its own.
            boolean constant = contribution.documents().values().stream()
                    .allMatch(document -> document.type().hasConstantDocument());
            return contribution.revised(constant ? 0 : twice(revision(entity)));
        } catch (RuntimeException e) {
            problems.add(side + ": " + describe(e));
            return Contribution.NONE;
        }
    }

    /** The documents' revision of a source state; a removal adds one, which must still fit. */
    private static long twice(long revision) {
        if (revision < 0 || revision > (Long.MAX_VALUE - 1) / 2) {
            throw new IllegalStateException("source revision out of range: " + revision);
        }
        return 2 * revision;
    }

    static String describe(RuntimeException e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
}
