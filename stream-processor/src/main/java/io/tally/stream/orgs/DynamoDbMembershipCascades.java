package io.tally.stream.orgs;

import io.tally.core.orgs.Membership;
import io.tally.stream.derive.Cascade;
import io.tally.stream.derive.CascadeRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * Removes the memberships of a deleted team or employee from the table: find them with consistent reads, delete each
 * on the condition that it still belongs to the deleted incarnation. Idempotent: a repeated run finds fewer or none,
 * and a membership removed meanwhile (or replaced by one of a later team or employee) is refused and left alone.
 */
public final class DynamoDbMembershipCascades implements CascadeRunner {
    /** Calls of one BatchGetItem until every key is read; DynamoDB may leave keys unprocessed under load. */
    static final int MAX_BATCH_ATTEMPTS = 8;

    private final DynamoDbClient dynamo;
    private final String table;

    public DynamoDbMembershipCascades(DynamoDbClient dynamo, String table) {
        this.dynamo = Objects.requireNonNull(dynamo, "dynamo");
        this.table = Objects.requireNonNull(table, "table");
    }

    @Override
    public int run(Cascade cascade) {
        if (cascade instanceof TeamMemberships team) {
            return run(team);
        }
        if (cascade instanceof EmployeeMemberships employee) {
            return run(employee);
        }
        throw new IllegalArgumentException("not a membership cascade: " + cascade.describe());
    }

    private int run(TeamMemberships cascade) {
        int removed = 0;
        Map<String, AttributeValue> start = null;
        do {
            QueryResponse page = dynamo.query(MembershipCascadeRequests.teamMemberships(table, cascade, start));
            for (Map<String, AttributeValue> item : page.items()) {
                if (isOf(item, Membership.TEAM_INCARNATION, cascade.incarnation())) {
                    removed += delete(item, Membership.TEAM_INCARNATION, cascade.incarnation());
                }
            }
            start = next(page);
        } while (start != null);
        return removed;
    }

    private int run(EmployeeMemberships cascade) {
        int removed = 0;
        Map<String, AttributeValue> start = null;
        do {
            QueryResponse page = dynamo.query(MembershipCascadeRequests.orgTeams(table, cascade, start));
            List<String> teamIds = page.items().stream().map(item -> item.get("teamId").s()).toList();
            for (int from = 0; from < teamIds.size(); from += MembershipCascadeRequests.BATCH_KEYS) {
                List<String> chunk = teamIds.subList(from,
                        Math.min(teamIds.size(), from + MembershipCascadeRequests.BATCH_KEYS));
                for (Map<String, AttributeValue> item : batchGet(
                        MembershipCascadeRequests.employeeMemberships(table, cascade, chunk))) {
                    if (isOf(item, Membership.EMPLOYEE_INCARNATION, cascade.incarnation())) {
                        removed += delete(item, Membership.EMPLOYEE_INCARNATION, cascade.incarnation());
                    }
                }
            }
            start = next(page);
        } while (start != null);
        return removed;
    }

    private int delete(Map<String, AttributeValue> item, String attribute, String incarnation) {
        try {
            dynamo.deleteItem(MembershipCascadeRequests.delete(table, MembershipCascadeRequests.keyOf(item), attribute,
                    incarnation));
            return 1;
        } catch (ConditionalCheckFailedException e) {
            // Removed meanwhile (the other cascade, the API, an earlier delivery) or replaced: nothing to do.
            return 0;
        }
    }

    private List<Map<String, AttributeValue>> batchGet(BatchGetItemRequest request) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        BatchGetItemRequest next = request;
        for (int attempt = 1; ; attempt++) {
            BatchGetItemResponse response = dynamo.batchGetItem(next);
            items.addAll(response.responses().getOrDefault(table, List.of()));
            if (!response.hasUnprocessedKeys() || response.unprocessedKeys().isEmpty()) {
                return items;
            }
            if (attempt == MAX_BATCH_ATTEMPTS) {
                throw new IllegalStateException("keys still unprocessed after " + attempt + " BatchGetItem calls");
            }
            next = BatchGetItemRequest.builder().requestItems(response.unprocessedKeys()).build();
            pause(attempt);
        }
    }

    private static boolean isOf(Map<String, AttributeValue> item, String attribute, String incarnation) {
        AttributeValue value = item.get(attribute);
        return value != null && incarnation.equals(value.s());
    }

    private static Map<String, AttributeValue> next(QueryResponse page) {
        return page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
    }

    private static void pause(int attempt) {
        try {
            Thread.sleep(Math.min(1_000L, 10L << attempt));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to read unprocessed keys", e);
        }
    }
}
