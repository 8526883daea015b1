package io.tally.domains.orgs;

import io.tally.core.derive.Contribution;
import io.tally.core.derive.EntityDerivation;
import io.tally.core.events.DomainEvent;
import io.tally.core.events.EventType;
import java.util.List;

/** An organisation announces {@code OrgCreated} (it counts once in the global {@code orgs}, {@link OrgFigures#ORGS}). */
public final class OrganisationDerivation extends EntityDerivation<Organisation> {
    public static final EventType ORG_CREATED = EventType.of("OrgCreated", OrgDetail.class);

    /** The detail of {@code OrgCreated}; {@code type} is null for an organisation without one. */
    public record OrgDetail(String eventId, String orgId, String name, String type) {
    }

    public OrganisationDerivation() {
        super(Orgs.ORGANISATION, Organisation::fromItem);
    }

    /** Its figure is a view's ({@link OrgFigures#ORGS}). */
    @Override
    protected Contribution contribution(Organisation org) {
        return Contribution.NONE;
    }

    /** On INSERT only: a rename changes no derived data, and organisations are never deleted by the API. */
    @Override
    protected List<DomainEvent> events(String eventId, Organisation before, Organisation after) {
        return created(before, after, org -> DomainEvent.about(eventId, ORG_CREATED, org.orgId(),
                id -> new OrgDetail(id, org.orgId(), org.name(), org.type())));
    }
}
