package io.tally.domains.orgs;

import io.tally.core.http.ApiException;
import io.tally.core.read.DerivedReads;
import io.tally.core.store.Requests;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The read side of the domain that is not a view's: a team's stats, where a missing stats item is told apart from a
 * team that does not exist (organisations themselves are their resource's, {@link OrgRoutes#RESOURCE}).
 */
final class OrgStore {
    private final DynamoDbClient dynamo;
    private final String table;

    OrgStore(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    /**
     * The team's organisation (from the reservation of its id, a consistent read) and its stats item (null when
     * nothing is counted yet). A team that does not exist now, never created or deleted, is {@code not_found}.
     */
    TeamStatsItem teamStats(String teamId) {
        Map<String, AttributeValue> reservation = DerivedReads.found(
                dynamo.getItem(Requests.consistentGet(table, IdReservation.Kind.TEAM.key(teamId))));
        if (reservation == null) {
            throw ApiException.notFound("team '" + teamId + "' does not exist");
        }
        String orgId = IdReservation.fromItem(IdReservation.Kind.TEAM, reservation).orgId();
        // D7: the team's stats item, its counters.
        return new TeamStatsItem(orgId, DerivedReads.found(dynamo.getItem(DerivedReads.get(table,
                OrgKeys.teamStats(teamId), DerivedReads.counters(OrgFigures.TEAM.type())))));
    }

    /** A team's organisation and its stats item, or null. */
    record TeamStatsItem(String orgId, Map<String, AttributeValue> item) {
    }

    static ApiException notFound(String orgId) {
        return ApiException.notFound("organisation '" + orgId + "' does not exist");
    }
}
