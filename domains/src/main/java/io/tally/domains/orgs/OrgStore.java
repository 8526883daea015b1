package io.tally.domains.orgs;

import io.tally.core.http.ApiException;
import io.tally.core.http.IfMatch;
import io.tally.core.read.DerivedReads;
import io.tally.core.store.Condition;
import io.tally.core.store.Requests;
import io.tally.core.store.TypedTable;
import io.tally.core.store.Update;
import io.tally.domains.orgs.IdReservation.Kind;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Organisations, and the read side of the domain (an organisation's and a team's stats), where a missing stats item
 * is told apart from a subject that does not exist.
 */
final class OrgStore {
    private final DynamoDbClient dynamo;
    private final String table;
    private final TypedTable<Organisation> organisations;

    OrgStore(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
        this.organisations = TypedTable.of(dynamo, table, Organisation.SCHEMA);
    }

    /** Writes a new organisation (access pattern 1 of seed 002); an id already taken is a {@code conflict}. */
    void create(Organisation org) {
        if (!organisations.putNew(org)) {
            throw ApiException.conflict("organisation '" + org.orgId() + "' already exists");
        }
    }

    Organisation get(String orgId) {
        return organisations.get(OrgKeys.organisation(orgId)).orElseThrow(() -> notFound(orgId));
    }

    /**
     * The organisation after the change: the given fields set, its version bumped. As for users, the condition refuses
     * to create an organisation and enforces {@code If-Match}; {@code not_found} without one, {@code
     * precondition_failed} on another version.
     */
    Organisation update(String orgId, String name, String type, Instant now, IfMatch ifMatch) {
        return organisations.update(OrgKeys.organisation(orgId), Update.versioned(now).set(Organisation.NAME, name)
                        .set(Organisation.TYPE, type), Condition.exists().atVersion(ifMatch.version()), current -> {
                    Organisation org = current.orElseThrow(() -> notFound(orgId));
                    throw ApiException.preconditionFailed("organisation '" + orgId + "' is at version "
                            + org.version() + ", not " + ifMatch.version());
                });
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
