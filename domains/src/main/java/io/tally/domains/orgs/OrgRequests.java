package io.tally.domains.orgs;

import io.tally.core.http.IfMatch;
import io.tally.core.read.DerivedReads;
import io.tally.core.store.Requests;
import io.tally.core.store.VersionedUpdates;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/** Pure builders of the organisation requests (access pattern 1 of seed 002); tested by comparing the requests. */
final class OrgRequests {
    private OrgRequests() {
    }

    /** A create never overwrites: the put is conditional on the key being free. */
    static PutItemRequest create(String table, Organisation org) {
        return Requests.putNew(table, org.toItem());
    }

    static GetItemRequest get(String table, String orgId) {
        return Requests.consistentGet(table, OrgKeys.organisation(orgId));
    }

    /**
     * Changes the given fields and bumps the version; as for users, the condition refuses to create an organisation
     * and enforces {@code If-Match}, and the old image returned on failure tells 404 from 412.
     */
    static UpdateItemRequest update(String table, String orgId, String name, String type, Instant now,
                                    IfMatch ifMatch) {
        List<String> sets = new ArrayList<>();
        Map<String, String> names = new HashMap<>();
        Map<String, AttributeValue> values = new HashMap<>();
        if (name != null) {
            sets.add("#name = :name");
            names.put("#name", Organisation.NAME);
            values.put(":name", AttributeValue.fromS(name));
        }
        if (type != null) {
            sets.add("#type = :type");
            names.put("#type", Organisation.TYPE);
            values.put(":type", AttributeValue.fromS(type));
        }
        return VersionedUpdates.request(table, OrgKeys.organisation(orgId), sets, names, values, "attribute_exists(pk)",
                now, ifMatch.version());
    }

    /** A team's stats item (D7). */
    static GetItemRequest teamStats(String table, String teamId) {
        return DerivedReads.get(table, OrgKeys.teamStats(teamId), DerivedReads.counters(OrgFigures.TEAM.type()));
    }
}
