package io.tally.domains.orgs;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An employee's membership of a team of the same organisation, in the team's partition. It records the
 * incarnations of the team and the employee it was added to: when either is deleted, the stream processor removes
 * exactly the memberships of that incarnation, never those of a later team or employee that reuses the id. The record
 * is both the item ({@link #SCHEMA}, with the reverse lookup's key: the teams of an employee) and the contract's JSON,
 * which leaves the incarnations out.
 */
@JsonPropertyOrder({"orgId", "teamId", "employeeId", "role", "addedAt"})
public record Membership(String orgId, String teamId, String employeeId, String role, Instant addedAt,
                         @JsonIgnore String teamIncarnation, @JsonIgnore String employeeIncarnation) {
    /** Attribute names the requests' conditions and the cascades use. */
    public static final String TEAM_INCARNATION = "teamIncarnation";
    public static final String EMPLOYEE_INCARNATION = "employeeIncarnation";

    public static final ItemSchema<Membership> SCHEMA =
            ItemSchema.of(Membership.class, Orgs.MEMBERSHIP, Membership::key)
                    .optional("role")
                    .computed(OrgKeys.LOOKUP_KEY, m -> OrgKeys.membershipSk(m.orgId, m.employeeId))
                    .build();

    public Key key() {
        return OrgKeys.membership(orgId, teamId, employeeId);
    }

    /** Whether this membership belongs to this team and this employee (not to earlier ones of the same ids). */
    public boolean joins(Team team, Employee employee) {
        return teamIncarnation.equals(team.incarnation()) && employeeIncarnation.equals(employee.incarnation());
    }

    /** The same membership, of the same team and employee incarnations (a role change does not make a new one). */
    public boolean sameAs(Membership other) {
        return other != null && key().equals(other.key()) && teamIncarnation.equals(other.teamIncarnation)
                && employeeIncarnation.equals(other.employeeIncarnation);
    }

    public Map<String, AttributeValue> toItem() {
        return SCHEMA.toItem(this);
    }

    public static Membership fromItem(Map<String, AttributeValue> item) {
        return SCHEMA.fromItem(item);
    }
}
