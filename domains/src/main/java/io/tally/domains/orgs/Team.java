package io.tally.domains.orgs;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A team of an organisation. Its id is unique across organisations and freed when the team is deleted, so the
 * same id may name a later team: {@code incarnation} (a generated id, new with every create) tells the teams apart,
 * and every membership records the incarnation it was added to (see {@link Membership}). The record is both the item
 * ({@link #SCHEMA}, with the reverse lookup's key) and the contract's JSON, which leaves the incarnation out.
 */
@JsonPropertyOrder({"teamId", "orgId", "name", "details", "createdAt"})
public record Team(String teamId, String orgId, String name, String details, Instant createdAt,
                   @JsonIgnore String incarnation) implements OrgPart {
    /** The attribute the membership cascade reads the teams of an organisation by. */
    public static final String TEAM_ID = "teamId";

    public static final ItemSchema<Team> SCHEMA = ItemSchema.of(Team.class, Orgs.TEAM, Team::key)
            .optional("details")
            .computed(OrgKeys.LOOKUP_KEY, team -> OrgKeys.teamLookup(team.teamId))
            .build();

    @Override
    public String id() {
        return teamId;
    }

    public Key key() {
        return OrgKeys.team(orgId, teamId);
    }

    public Map<String, AttributeValue> toItem() {
        return SCHEMA.toItem(this);
    }

    public static Team fromItem(Map<String, AttributeValue> item) {
        return SCHEMA.fromItem(item);
    }
}
