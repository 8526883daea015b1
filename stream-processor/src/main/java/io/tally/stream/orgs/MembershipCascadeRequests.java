package io.tally.stream.orgs;

import io.tally.core.Key;
import io.tally.core.orgs.Membership;
import io.tally.core.orgs.OrgKeys;
import io.tally.core.orgs.Team;
import io.tally.stream.derive.ConditionalRemovals;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
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
        return QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk",
                        AttributeValue.fromS(OrgKeys.membershipsPk(cascade.orgId(), cascade.teamId()))))
                .projectionExpression("pk, sk, " + Membership.TEAM_INCARNATION)
                .consistentRead(true)
                .exclusiveStartKey(start)
                .build();
    }

    /**
     * One page of the teams of the employee's organisation. The reverse-lookup index would name the employee's
     * memberships directly, but it is eventually consistent: a membership added just before the employee was deleted
     * may not be in it yet. Every membership of the employee lies in the partition of a team of its organisation
     * that exists, or of one that was deleted, whose own cascade removes it.
     */
    static QueryRequest orgTeams(String table, EmployeeMemberships cascade, Map<String, AttributeValue> start) {
        return QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression("pk = :pk AND begins_with(sk, :teams)")
                .expressionAttributeValues(Map.of(
                        ":pk", AttributeValue.fromS(OrgKeys.orgPk(cascade.orgId())),
                        ":teams", AttributeValue.fromS(OrgKeys.TEAM_PREFIX)))
                .projectionExpression(Team.TEAM_ID)
                .consistentRead(true)
                .exclusiveStartKey(start)
                .build();
    }

    /** The employee's possible memberships in these teams (at most {@value ConditionalRemovals#BATCH_KEYS}). */
    static BatchGetItemRequest employeeMemberships(String table, EmployeeMemberships cascade, List<String> teamIds) {
        List<Map<String, AttributeValue>> keys = teamIds.stream()
                .map(teamId -> OrgKeys.membership(cascade.orgId(), teamId, cascade.employeeId()).toAttributeMap())
                .toList();
        return BatchGetItemRequest.builder()
                .requestItems(Map.of(table, KeysAndAttributes.builder()
                        .keys(keys)
                        .projectionExpression("pk, sk, " + Membership.EMPLOYEE_INCARNATION)
                        .consistentRead(true)
                        .build()))
                .build();
    }

    /** Removes one membership if it still belongs to the removed incarnation ({@link ConditionalRemovals#delete}). */
    static DeleteItemRequest delete(String table, Key membership, String incarnationAttribute, String incarnation) {
        return ConditionalRemovals.delete(table, membership, incarnationAttribute, incarnation);
    }
}
