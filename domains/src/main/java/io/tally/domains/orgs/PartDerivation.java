package io.tally.domains.orgs;

import io.tally.core.ItemSchema;
import io.tally.core.derive.Cascade;
import io.tally.core.derive.EntityDerivation;
import io.tally.core.events.DomainEvent;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What the derivations of teams and employees share. A part is never modified: a change is a creation or a removal,
 * which announces {@code <Part>Created} or {@code <Part>Deleted} about the part's id, and a removal removes the part's
 * memberships in turn (those of its incarnation).
 */
abstract class PartDerivation<T extends Record & OrgPart> extends EntityDerivation<T> {
    private final String created;
    private final String deleted;

    PartDerivation(ItemSchema<T> schema, String created, String deleted) {
        super(schema.entityType(), schema::fromItem);
        this.created = created;
        this.deleted = deleted;
    }

    /** The cascade that removes the memberships of this incarnation of the part. */
    protected abstract Cascade memberships(T part);

    /** The detail of an event about the part, with its id. */
    protected abstract Record detail(String id, T part);

    @Override
    protected final List<Cascade> cascades(T before, T after) {
        return before != null && after == null ? List.of(memberships(before)) : List.of();
    }

    @Override
    protected final List<DomainEvent> events(String eventId, T before, T after) {
        return createdOrRemoved(before, after, part -> event(eventId, created, part),
                part -> event(eventId, deleted, part));
    }

    private DomainEvent event(String eventId, String detailType, T part) {
        String id = DomainEvent.idFor(eventId, detailType, part.id());
        return DomainEvent.of(id, detailType, detail(id, part));
    }
}
