package io.tally.domains.orgs;

import io.tally.core.derive.Cascade;
import io.tally.core.derive.CascadeRunner;
import io.tally.core.derive.ConditionalRemovals;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Removes the memberships of a deleted team or employee from the table: find them with consistent reads, delete each
 * on the condition that it still belongs to the deleted incarnation ({@link ConditionalRemovals}). Idempotent: a
 * repeated run finds fewer or none, and a membership removed meanwhile (or replaced by one of a later team or
 * employee) is refused and left alone.
 */
public final class DynamoDbMembershipCascades implements CascadeRunner {
    private final ConditionalRemovals removals;

    public DynamoDbMembershipCascades(DynamoDbClient dynamo, String table) {
        this.removals = new ConditionalRemovals(dynamo, table);
    }

    /**
     * A team's memberships are its partition. An employee's are found through the teams of its organisation (the
     * reverse-lookup index would name them directly, but it is eventually consistent): every membership of the
     * employee lies in the partition of a team that exists, or of one that was deleted, whose own cascade removes it.
     */
    @Override
    public int run(Cascade cascade) {
        if (cascade instanceof TeamMemberships team) {
            return removals.removeInPartition(OrgKeys.membershipsPk(team.orgId(), team.teamId()),
                    Membership.TEAM_INCARNATION, team.incarnation());
        }
        if (cascade instanceof EmployeeMemberships employee) {
            return removals.removeAcross(OrgKeys.orgPk(employee.orgId()), OrgKeys.TEAM_PREFIX, Team.TEAM_ID,
                    teamId -> OrgKeys.membership(employee.orgId(), teamId, employee.employeeId()),
                    Membership.EMPLOYEE_INCARNATION, employee.incarnation());
        }
        throw new IllegalArgumentException("not a membership cascade: " + cascade.describe());
    }
}
