package io.tally.domains.orgs;

import io.tally.core.http.ApiException;
import io.tally.core.store.QueryPage;
import io.tally.core.store.Transactions;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/** Memberships: the put that must never reach a team or employee that does not exist, removal, the two lists. */
record MembershipStore(DynamoDbClient dynamo, String table) {
    /** Puts of one membership that lost a race on its key, before the client is asked to retry (503). */
    static final int ATTEMPTS = 3;

    /** The outcome of a put: the membership as stored, and whether it is new. */
    record Put(Membership membership, boolean created) {
    }

    /**
     * Adds the employee to the team, or changes the role of the membership they have. The team and the employee were
     * read by the caller; the transaction checks they are still those (404 otherwise).
     */
    Put put(Team team, Employee employee, String role, Instant now) {
        for (int attempt = 1; ; attempt++) {
            Map<String, AttributeValue> current = dynamo.getItem(
                    MembershipRequests.get(table, team.orgId(), team.teamId(), employee.employeeId())).item();
            Membership existing = current == null || current.isEmpty() ? null : Membership.fromItem(current);
            boolean replacing = existing != null && existing.joins(team, employee);
            Membership membership = new Membership(team.orgId(), team.teamId(), employee.employeeId(), role,
                    replacing ? existing.addedAt() : now, team.incarnation(), employee.incarnation());
            try {
                Transactions.write(dynamo, MembershipRequests.put(table, membership, replacing));
                return new Put(membership, !replacing);
            } catch (TransactionCanceledException e) {
                if (Transactions.conditionFailed(e, MembershipRequests.PUT_TEAM)) {
                    throw ApiException.notFound("organisation '" + team.orgId() + "' has no team '" + team.teamId() + "'");
                }
                if (Transactions.conditionFailed(e, MembershipRequests.PUT_EMPLOYEE)) {
                    throw ApiException.notFound("organisation '" + team.orgId() + "' has no employee '"
                            + employee.employeeId() + "'");
                }
                if (!Transactions.conditionFailed(e, MembershipRequests.PUT_MEMBERSHIP)) {
                    throw e;
                }
                if (attempt >= ATTEMPTS) {
                    throw ApiException.unavailable("the membership is changing; retry");
                }
                // Another request changed the membership since it was read: read it again and decide anew.
            }
        }
    }

    /** The membership as it was before its removal; {@code not_found} when there is none. */
    Membership delete(String orgId, String teamId, String employeeId) {
        try {
            return Membership.fromItem(dynamo.deleteItem(MembershipRequests.delete(table, orgId, teamId, employeeId))
                    .attributes());
        } catch (ConditionalCheckFailedException e) {
            throw ApiException.notFound("employee '" + employeeId + "' is not a member of team '" + teamId + "'");
        }
    }

    QueryPage ofTeam(Team team, int limit, Map<String, AttributeValue> start) {
        return QueryPage.of(dynamo.query(MembershipRequests.ofTeam(table, team, limit, start)), limit,
                MembershipRequests.TEAM_LIST_KEY);
    }

    QueryPage ofEmployee(Employee employee, int limit, Map<String, AttributeValue> start) {
        return QueryPage.of(dynamo.query(MembershipRequests.ofEmployee(table, employee, limit, start)), limit,
                MembershipRequests.EMPLOYEE_LIST_KEY);
    }
}
