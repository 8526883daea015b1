package io.tally.domains.orgs;

import io.tally.core.derive.Cascade;
import io.tally.core.derive.CascadeRunner;
import io.tally.core.derive.ConditionalRemovals;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * Removes the memberships of a deleted team or employee from the table: find them with consistent reads, delete each
 * on the condition that it still belongs to the deleted incarnation. Idempotent: a repeated run finds fewer or none,
 * and a membership removed meanwhile (or replaced by one of a later team or employee) is refused and left alone.
 */
public final class DynamoDbMembershipCascades implements CascadeRunner {
    private final ConditionalRemovals removals;
    private final String table;

    public DynamoDbMembershipCascades(DynamoDbClient dynamo, String table) {
        this.removals = new ConditionalRemovals(dynamo, table);
        this.table = table;
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
            QueryResponse page = removals.query(MembershipCascadeRequests.teamMemberships(table, cascade, start));
            for (Map<String, AttributeValue> item : page.items()) {
                if (ConditionalRemovals.isOf(item, Membership.TEAM_INCARNATION, cascade.incarnation())) {
                    removed += removals.removeIf(ConditionalRemovals.keyOf(item), Membership.TEAM_INCARNATION,
                            cascade.incarnation());
                }
            }
            start = ConditionalRemovals.next(page);
        } while (start != null);
        return removed;
    }

    private int run(EmployeeMemberships cascade) {
        int removed = 0;
        Map<String, AttributeValue> start = null;
        do {
            QueryResponse page = removals.query(MembershipCascadeRequests.orgTeams(table, cascade, start));
            List<String> teamIds = page.items().stream().map(item -> item.get("teamId").s()).toList();
            for (int from = 0; from < teamIds.size(); from += ConditionalRemovals.BATCH_KEYS) {
                List<String> chunk = teamIds.subList(from,
                        Math.min(teamIds.size(), from + ConditionalRemovals.BATCH_KEYS));
                for (Map<String, AttributeValue> item : removals.batchGet(
                        MembershipCascadeRequests.employeeMemberships(table, cascade, chunk))) {
                    if (ConditionalRemovals.isOf(item, Membership.EMPLOYEE_INCARNATION, cascade.incarnation())) {
                        removed += removals.removeIf(ConditionalRemovals.keyOf(item), Membership.EMPLOYEE_INCARNATION,
                                cascade.incarnation());
                    }
                }
            }
            start = ConditionalRemovals.next(page);
        } while (start != null);
        return removed;
    }
}
