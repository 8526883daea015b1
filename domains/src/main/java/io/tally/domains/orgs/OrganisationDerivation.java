package io.tally.domains.orgs;

import io.tally.core.derive.Contribution;
import io.tally.core.derive.EntityDerivation;
import io.tally.core.events.DomainEvent;
import io.tally.core.users.SharedStats;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** An organisation counts once in the global totals ({@code orgs}); it announces {@code OrgCreated}. */
public final class OrganisationDerivation extends EntityDerivation<Organisation> {
    public static final String ORG_CREATED = "OrgCreated";


    public OrganisationDerivation() {
        super(Orgs.ORGANISATION);
    }

    @Override
    protected Organisation read(Map<String, AttributeValue> image) {
        return Organisation.fromItem(image);
    }

    @Override
    protected Contribution contribution(Organisation org) {
        return Contribution.builder()
                .count(SharedStats.global(Orgs.GLOBAL_ORGS), 1)
                .build();
    }

    /** On INSERT only: a rename changes no derived data, and organisations are never deleted by the API. */
    @Override
    protected List<DomainEvent> events(String eventId, Organisation before, Organisation after) {
        if (before != null || after == null) {
            return List.of();
        }
        String id = DomainEvent.idFor(eventId, ORG_CREATED, after.orgId());
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("eventId", id);
        detail.put("orgId", after.orgId());
        detail.put("name", after.name());
        detail.put("type", after.type());
        return List.of(new DomainEvent(id, ORG_CREATED, detail));
    }
}
