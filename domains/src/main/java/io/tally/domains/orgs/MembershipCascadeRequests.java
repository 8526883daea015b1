package io.tally.domains.orgs;

import io.tally.core.Key;
import io.tally.core.derive.ConditionalRemovals;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * Pure builders of the cascade's requests; tested by comparing the requests they build. Every read is strongly
 * consistent: a membership that a read missed would outlive its team or employee for good.
 */
final class MembershipCascadeRequests {
    private MembershipCascadeRequests() {
    }

    /** One page of a team's partition: its memberships, whatever incarnation they were added to. */
    static QueryRequest teamMemberships(String table, TeamMemberships cascade, Map<String, AttributeValue> start) {
        return ConditionalRemovals.partitionPage(table, OrgKeys.membershipsPk(cascade.orgId(), cascade.teamId()),
                "pk, sk, " + Membership.TEAM_INCARNATION, start);
    }

    /**
     * One page of the teams of the employee's organisation. The reverse-lookup index would name the employee's
     * memberships directly, but it is eventually consistent: a membership added just before the employee was deleted
     * may not be in it yet. Every membership of the employee lies in the partition of a team of its organisation
     * that exists, or of one that was deleted, whose own cascade removes it.
     */
    static QueryRequest orgTeams(String table, EmployeeMemberships cascade, Map<String, AttributeValue> start) {
        return ConditionalRemovals.prefixPage(table, OrgKeys.orgPk(cascade.orgId()), OrgKeys.TEAM_PREFIX, Team.TEAM_ID,
                start);
    }

    /** The employee's possible memberships in these teams (at most {@value ConditionalRemovals#BATCH_KEYS}). */
    static BatchGetItemRequest employeeMemberships(String table, EmployeeMemberships cascade, List<String> teamIds) {
        return ConditionalRemovals.batchGet(table, teamIds.stream()
                .map(teamId -> OrgKeys.membership(cascade.orgId(), teamId, cascade.employeeId())).toList(),
                "pk, sk, " + Membership.EMPLOYEE_INCARNATION);
    }

    /** Removes one membership if it still belongs to the removed incarnation ({@link ConditionalRemovals#delete}). */
    static DeleteItemRequest delete(String table, Key membership, String incarnationAttribute, String incarnation) {
        return ConditionalRemovals.delete(table, membership, incarnationAttribute, incarnation);
    }
}
