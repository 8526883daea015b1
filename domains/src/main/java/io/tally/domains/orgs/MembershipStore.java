package io.tally.domains.orgs;

import io.tally.core.TableSchema;
import io.tally.core.http.ApiException;
import io.tally.core.store.ChangedMeanwhile;
import io.tally.core.store.Condition;
import io.tally.core.store.Query;
import io.tally.core.store.QueryPage;
import io.tally.core.store.Transaction;
import io.tally.core.store.TypedTable;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Put;

/** Memberships: the put that must never reach a team or employee that does not exist, removal, the two lists. */
final class MembershipStore {
    /** Puts of one membership that lost a race on its key, before the client is asked to retry (503). */
    static final int ATTEMPTS = 3;
    /** A team's list pages by the table's key. */
    static final Set<String> TEAM_LIST_KEY = Set.of(TableSchema.PK, TableSchema.SK);
    /** An employee's list pages by the reverse lookup's key, which includes the table's. */
    static final Set<String> EMPLOYEE_LIST_KEY = Set.of(OrgKeys.LOOKUP_KEY, TableSchema.PK, TableSchema.SK);

    private final DynamoDbClient dynamo;
    private final String table;
    private final TypedTable<Membership> memberships;

    MembershipStore(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
        this.memberships = TypedTable.of(dynamo, table, Membership.SCHEMA);
    }

    /** The outcome of a put: the membership as stored, and whether it is new. */
    record Put(Membership membership, boolean created) {
    }

    /**
     * Adds the employee to the team, or changes the role of the membership they have. The team and the employee were
     * read by the caller; the transaction checks they are still those, the same incarnations (404 otherwise: a
     * deleted team's memberships are being removed by the stream processor, so one must never be added to it). The
     * put's condition says what the writer saw at the key: nothing (or a membership of an earlier team or employee of
     * the same ids, left for the stream processor to remove), or this very membership (a role change); a request that
     * raced another one on the key is refused and tried again.
     */
    Put put(Team team, Employee employee, String role, Instant now) {
        for (int attempt = 1; ; attempt++) {
            Membership existing = memberships.get(OrgKeys.membership(team.orgId(), team.teamId(),
                    employee.employeeId())).orElse(null);
            boolean replacing = existing != null && existing.joins(team, employee);
            Membership membership = new Membership(team.orgId(), team.teamId(), employee.employeeId(), role,
                    replacing ? existing.addedAt() : now, team.incarnation(), employee.incarnation());
            Condition sameParts = Condition.is(Membership.TEAM_INCARNATION, membership.teamIncarnation())
                    .and(Condition.is(Membership.EMPLOYEE_INCARNATION, membership.employeeIncarnation()));
            Condition otherParts = Condition.absent()
                    .or(Condition.isNot(Membership.TEAM_INCARNATION, membership.teamIncarnation()))
                    .or(Condition.isNot(Membership.EMPLOYEE_INCARNATION, membership.employeeIncarnation()));
            Transaction write = Transaction.in(dynamo, table);
            write.check(Team.SCHEMA, team.key(), Condition.is(OrgPart.INCARNATION, team.incarnation()))
                    .orElse(() -> ApiException.notFound("organisation '" + team.orgId() + "' has no team '"
                            + team.teamId() + "'"));
            write.check(Employee.SCHEMA, employee.key(), Condition.is(OrgPart.INCARNATION, employee.incarnation()))
                    .orElse(() -> ApiException.notFound("organisation '" + team.orgId() + "' has no employee '"
                            + employee.employeeId() + "'"));
            write.put(Membership.SCHEMA, membership, replacing ? sameParts : otherParts)
                    .orElse(() -> new ChangedMeanwhile());
            try {
                write.commit();
                return new Put(membership, !replacing);
            } catch (ChangedMeanwhile e) {
                if (attempt >= ATTEMPTS) {
                    throw ApiException.unavailable("the membership is changing; retry");
                }
            }
        }
    }

    /** The membership as it was before its removal; {@code not_found} when there is none (any more). */
    Membership delete(String orgId, String teamId, String employeeId) {
        return memberships.delete(OrgKeys.membership(orgId, teamId, employeeId)).orElseThrow(() ->
                ApiException.notFound("employee '" + employeeId + "' is not a member of team '" + teamId + "'"));
    }

    /** One page of a team's memberships, by employee id. */
    QueryPage ofTeam(Team team, int limit, Map<String, AttributeValue> start) {
        return memberships.page(Query.partition(OrgKeys.membershipsPk(team.orgId(), team.teamId())), limit, start,
                TEAM_LIST_KEY);
    }

    /**
     * One page of an employee's memberships through the reverse lookup (the teams of an employee): every membership
     * of the employee has the same sort key, the index's hash key. Ordered by team (the index's range key is the
     * table's {@code pk}).
     */
    QueryPage ofEmployee(Employee employee, int limit, Map<String, AttributeValue> start) {
        return memberships.page(Query.globalIndex(OrgKeys.REVERSE_LOOKUP_INDEX, OrgKeys.LOOKUP_KEY,
                OrgKeys.membershipSk(employee.orgId(), employee.employeeId())), limit, start, EMPLOYEE_LIST_KEY);
    }
}
