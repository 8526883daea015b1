package io.tally.domains.orgs;

import io.tally.core.Key;
import io.tally.core.TableSchema;
import io.tally.core.store.Requests;
import io.tally.domains.orgs.IdReservation.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

/** Pure builders of the membership requests; tested by comparing the requests they build. */
final class MembershipRequests {
    /** Positions of the actions of {@link #put}, to read the cancellation reasons by. */
    static final int PUT_TEAM = 0;
    static final int PUT_EMPLOYEE = 1;
    static final int PUT_MEMBERSHIP = 2;

    /** A team's list pages by the table's key. */
    static final Set<String> TEAM_LIST_KEY = Set.of(TableSchema.PK, TableSchema.SK);
    /** An employee's list pages by the reverse lookup's key, which includes the table's. */
    static final Set<String> EMPLOYEE_LIST_KEY = Set.of(TableSchema.LOOKUP_KEY, TableSchema.PK, TableSchema.SK);

    private MembershipRequests() {
    }

    /**
     * Writes the membership if, at that instant, the team and the employee that were read still exist (the same
     * incarnations: a deleted team's memberships are being removed by the stream processor, so one must never be
     * added to it). The put's condition says what the writer saw at the key: nothing (or a membership of an earlier
     * team or employee of the same ids, left for the stream processor to remove), or this very membership (a role
     * change); a request that raced another one on the key is refused and tried again by the store.
     */
    static TransactWriteItemsRequest put(String table, Membership membership, boolean replacing) {
        List<TransactWriteItem> actions = new ArrayList<>(3);
        actions.add(PUT_TEAM, check(table, PartRequests.key(Kind.TEAM, membership.orgId(), membership.teamId()),
                membership.teamIncarnation()));
        actions.add(PUT_EMPLOYEE, check(table,
                PartRequests.key(Kind.EMPLOYEE, membership.orgId(), membership.employeeId()),
                membership.employeeIncarnation()));
        String condition = replacing
                ? "#teamInc = :teamInc AND #employeeInc = :employeeInc"
                : "attribute_not_exists(pk) OR #teamInc <> :teamInc OR #employeeInc <> :employeeInc";
        actions.add(PUT_MEMBERSHIP, TransactWriteItem.builder()
                .put(Put.builder()
                        .tableName(table)
                        .item(membership.toItem())
                        .conditionExpression(condition)
                        .expressionAttributeNames(Map.of("#teamInc", Membership.TEAM_INCARNATION,
                                "#employeeInc", Membership.EMPLOYEE_INCARNATION))
                        .expressionAttributeValues(Map.of(
                                ":teamInc", AttributeValue.fromS(membership.teamIncarnation()),
                                ":employeeInc", AttributeValue.fromS(membership.employeeIncarnation())))
                        .build())
                .build());
        return TransactWriteItemsRequest.builder().transactItems(actions).build();
    }

    private static TransactWriteItem check(String table, Key key, String incarnation) {
        return TransactWriteItem.builder()
                .conditionCheck(ConditionCheck.builder()
                        .tableName(table)
                        .key(key.toAttributeMap())
                        .conditionExpression("#incarnation = :incarnation")
                        .expressionAttributeNames(Map.of("#incarnation", OrgPart.INCARNATION))
                        .expressionAttributeValues(Map.of(":incarnation", AttributeValue.fromS(incarnation)))
                        .build())
                .build();
    }

    static GetItemRequest get(String table, String orgId, String teamId, String employeeId) {
        return Requests.consistentGet(table, OrgKeys.membership(orgId, teamId, employeeId));
    }

    /** A removal by the API; the condition turns a removal that lost a race into a 404. */
    static DeleteItemRequest delete(String table, String orgId, String teamId, String employeeId) {
        return DeleteItemRequest.builder()
                .tableName(table)
                .key(OrgKeys.membership(orgId, teamId, employeeId).toAttributeMap())
                .conditionExpression("attribute_exists(pk)")
                .returnValues(ReturnValue.ALL_OLD)
                .build();
    }

    /** One page of a team's memberships, by employee id; one item more than the page. */
    static QueryRequest ofTeam(String table, Team team, int limit, Map<String, AttributeValue> start) {
        return QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk",
                        AttributeValue.fromS(OrgKeys.membershipsPk(team.orgId(), team.teamId()))))
                .consistentRead(true)
                .limit(limit + 1)
                .exclusiveStartKey(start)
                .build();
    }

    /**
     * One page of an employee's memberships through the reverse lookup (the teams of an employee): every membership
     * of the employee has the same sort key, the index's hash key. Ordered by team (the index's range key is the
     * table's {@code pk}).
     */
    static QueryRequest ofEmployee(String table, Employee employee, int limit, Map<String, AttributeValue> start) {
        return QueryRequest.builder()
                .tableName(table)
                .indexName(TableSchema.REVERSE_LOOKUP_INDEX)
                .keyConditionExpression("#lookup = :lookup")
                .expressionAttributeNames(Map.of("#lookup", TableSchema.LOOKUP_KEY))
                .expressionAttributeValues(Map.of(":lookup",
                        AttributeValue.fromS(OrgKeys.membershipSk(employee.orgId(), employee.employeeId()))))
                .limit(limit + 1)
                .exclusiveStartKey(start)
                .build();
    }
}
