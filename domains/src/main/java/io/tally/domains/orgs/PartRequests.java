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
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

/**
 * Pure builders of the requests of an organisation's parts, teams and employees, which are stored alike: in the
 * organisation's partition (access patterns 2 and 3 of seed 002), found by id through the reverse lookup (4 and 5),
 * their ids reserved across organisations. Tested by comparing the requests they build.
 */
final class PartRequests {
    /** Positions of the actions of {@link #create}, to read the cancellation reasons by. */
    static final int CREATE_ORG = 0;
    static final int CREATE_RESERVATION = 1;
    static final int CREATE_PART = 2;

    /** The key attributes of the table, which the lists' pagination cursors consist of. */
    static final Set<String> LIST_KEY = Set.of(TableSchema.PK, TableSchema.SK);

    private PartRequests() {
    }

    static Key key(Kind kind, String orgId, String id) {
        return kind == Kind.TEAM ? OrgKeys.team(orgId, id) : OrgKeys.employee(orgId, id);
    }

    static String lookup(Kind kind, String id) {
        return kind == Kind.TEAM ? OrgKeys.teamLookup(id) : OrgKeys.employeeLookup(id);
    }

    /**
     * Writes the part if, at that instant, its organisation exists and its id is free in every organisation: the
     * reservation is put in the same transaction, so two organisations racing for one id cannot both win.
     */
    static TransactWriteItemsRequest create(String table, Kind kind, String orgId, String id,
                                            Map<String, AttributeValue> item) {
        List<TransactWriteItem> actions = new ArrayList<>(3);
        actions.add(CREATE_ORG, TransactWriteItem.builder()
                .conditionCheck(ConditionCheck.builder()
                        .tableName(table)
                        .key(OrgKeys.organisation(orgId).toAttributeMap())
                        .conditionExpression("attribute_exists(pk)")
                        .build())
                .build());
        actions.add(CREATE_RESERVATION, Requests.putNewAction(table, new IdReservation(kind, id, orgId).toItem()));
        actions.add(CREATE_PART, Requests.putNewAction(table, item));
        return TransactWriteItemsRequest.builder().transactItems(actions).build();
    }

    static GetItemRequest get(String table, Kind kind, String orgId, String id) {
        return Requests.consistentGet(table, key(kind, orgId, id));
    }

    /**
     * A part by id alone, through the reverse lookup: its sort key is its lookup key. Ids are unique across
     * organisations, so at most one part answers (two only for the moment the index takes to follow a delete and a
     * create of the same id).
     */
    static QueryRequest lookUp(String table, Kind kind, String id) {
        return QueryRequest.builder()
                .tableName(table)
                .indexName(TableSchema.REVERSE_LOOKUP_INDEX)
                .keyConditionExpression("#lookup = :lookup")
                .expressionAttributeNames(Map.of("#lookup", TableSchema.LOOKUP_KEY))
                .expressionAttributeValues(Map.of(":lookup", AttributeValue.fromS(lookup(kind, id))))
                .build();
    }

    /** One page of the organisation's teams or employees, by id; one item more than the page. */
    static QueryRequest list(String table, Kind kind, String orgId, int limit, Map<String, AttributeValue> start) {
        return QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression("pk = :pk AND begins_with(sk, :prefix)")
                .expressionAttributeValues(Map.of(
                        ":pk", AttributeValue.fromS(OrgKeys.orgPk(orgId)),
                        ":prefix", AttributeValue.fromS(kind == Kind.TEAM ? OrgKeys.TEAM_PREFIX : OrgKeys.EMPLOYEE_PREFIX)))
                .consistentRead(true)
                .limit(limit + 1)
                .exclusiveStartKey(start)
                .build();
    }

    /**
     * Deletes the part that was read (its incarnation) and frees its id. The memberships stay for the stream
     * processor to remove: a transaction takes at most 100 actions, and a team may have more members.
     */
    static TransactWriteItemsRequest delete(String table, Kind kind, String orgId, String id, String incarnation) {
        return TransactWriteItemsRequest.builder().transactItems(
                TransactWriteItem.builder().delete(Delete.builder()
                        .tableName(table)
                        .key(key(kind, orgId, id).toAttributeMap())
                        .conditionExpression("#incarnation = :incarnation")
                        .expressionAttributeNames(Map.of("#incarnation", OrgPart.INCARNATION))
                        .expressionAttributeValues(Map.of(":incarnation", AttributeValue.fromS(incarnation)))
                        .build()).build(),
                TransactWriteItem.builder().delete(Delete.builder()
                        .tableName(table)
                        .key(kind.key(id).toAttributeMap())
                        .conditionExpression("#orgId = :orgId")
                        .expressionAttributeNames(Map.of("#orgId", IdReservation.ORG_ID))
                        .expressionAttributeValues(Map.of(":orgId", AttributeValue.fromS(orgId)))
                        .build()).build())
                .build();
    }

    /** Whether the id is reserved, and by which organisation (a consistent read of the reservation). */
    static GetItemRequest reservation(String table, Kind kind, String id) {
        return Requests.consistentGet(table, kind.key(id));
    }
}
