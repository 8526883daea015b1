package io.tally.domains.orgs;

import io.tally.core.http.ApiException;
import io.tally.core.http.IfMatch;
import io.tally.core.read.DerivedReads;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * Organisations, and the read side of the domain (an organisation's and a team's stats), where a missing stats item
 * is told apart from a subject that does not exist.
 */
record OrgStore(DynamoDbClient dynamo, String table) {
    /** Writes a new organisation; an id already taken is a {@code conflict}. */
    void create(Organisation org) {
        try {
            dynamo.putItem(OrgRequests.create(table, org));
        } catch (ConditionalCheckFailedException e) {
            throw ApiException.conflict("organisation '" + org.orgId() + "' already exists");
        }
    }

    Organisation get(String orgId) {
        Map<String, AttributeValue> item = dynamo.getItem(OrgRequests.get(table, orgId)).item();
        if (item == null || item.isEmpty()) {
            throw notFound(orgId);
        }
        return Organisation.fromItem(item);
    }

    /** The organisation after the change; {@code not_found} without one, {@code precondition_failed} on another version. */
    Organisation update(String orgId, String name, String type, Instant now, IfMatch ifMatch) {
        try {
            return Organisation.fromItem(dynamo.updateItem(OrgRequests.update(table, orgId, name, type, now, ifMatch))
                    .attributes());
        } catch (ConditionalCheckFailedException e) {
            if (!e.hasItem() || e.item().isEmpty()) {
                throw notFound(orgId);
            }
            throw ApiException.preconditionFailed("organisation '" + orgId + "' is at version "
                    + Organisation.fromItem(e.item()).version() + ", not " + ifMatch.version());
        }
    }

    /**
     * The team's organisation (from the reservation of its id, a consistent read) and its stats item (null when
     * nothing is counted yet). A team that does not exist now, never created or deleted, is {@code not_found}.
     */
    TeamStatsItem teamStats(String teamId) {
        Map<String, AttributeValue> reservation = DerivedReads.found(
                dynamo.getItem(PartRequests.reservation(table, IdReservation.Kind.TEAM, teamId)));
        if (reservation == null) {
            throw ApiException.notFound("team '" + teamId + "' does not exist");
        }
        String orgId = IdReservation.fromItem(IdReservation.Kind.TEAM, reservation).orgId();
        return new TeamStatsItem(orgId, DerivedReads.found(dynamo.getItem(OrgRequests.teamStats(table, teamId))));
    }

    /** A team's organisation and its stats item, or null. */
    record TeamStatsItem(String orgId, Map<String, AttributeValue> item) {
    }

    static ApiException notFound(String orgId) {
        return ApiException.notFound("organisation '" + orgId + "' does not exist");
    }
}
