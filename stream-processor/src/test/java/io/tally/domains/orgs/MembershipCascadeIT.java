package io.tally.domains.orgs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.derive.CascadeRunner;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.events.DomainEvent;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.rebuild.Rebuilder;
import io.tally.stream.rebuild.RepairReport;
import io.tally.stream.rebuild.VerificationReport;
import io.tally.stream.testing.RecordingPublisher;
import io.tally.stream.testing.StreamDrain;
import io.tally.testkit.LocalDynamoDb;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The cascade on DynamoDB Local's real stream with the real engine and SDK: a deleted team's or employee's
 * memberships are removed by the stream processor, their own REMOVE records count the team and the organisation
 * down, a redelivery removes nothing more, and a membership of a later team reusing the id is left alone.
 */
class MembershipCascadeIT {
    private static final Instant T = Instant.parse("2020-07-05T10:00:00.000Z");
    private static final Derivations DERIVATIONS = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);

    private final DynamoDbClient dynamo = LocalDynamoDb.client();
    private final RecordingPublisher publisher = new RecordingPublisher();
    private String table;
    private StreamDrain stream;

    @BeforeEach
    void setUp() {
        table = LocalDynamoDb.createTable("cascade-it");
        stream = StreamDrain.withEngine(dynamo, table, DERIVATIONS, publisher);
        put(new Organisation("abc", "ABC", "Retail", T, T, 1).toItem());
    }

    @AfterEach
    void tearDown() {
        stream.close();
    }

    @Test
    void deletedTeam_membershipsRemovedByTheStream_countsFollow_redeliveryRemovesNothing() {
        Team web = team("web", "t1");
        Team ops = team("ops", "t2");
        Employee maureen = employee("maureen", "e1");
        Employee allie = employee("allie", "e2");
        put(member(web, maureen).toItem());
        put(member(web, allie).toItem());
        put(member(ops, maureen).toItem());
        stream.drain();
        assertThat(stream.counter(OrgKeys.teamStats("web"), Orgs.TEAM_MEMBERS)).isEqualTo(2);
        assertThat(stream.counter(OrgKeys.orgStats("abc"), Orgs.ORG_MEMBERSHIPS)).isEqualTo(3);

        deletePart(IdReservation.Kind.TEAM, web.key(), "web");
        List<SourceRecord> removal = stream.drain();

        assertThat(memberships()).extracting(Membership::teamId).containsExactly("ops");
        assertThat(stream.counter(OrgKeys.teamStats("web"), Orgs.TEAM_MEMBERS)).isZero();
        assertThat(stream.counter(OrgKeys.orgStats("abc"), Orgs.ORG_MEMBERSHIPS)).isEqualTo(1);
        assertThat(stream.counter(OrgKeys.orgStats("abc"), Orgs.ORG_TEAMS)).isEqualTo(1);
        assertThat(publisher.published()).extracting(DomainEvent::detailType)
                .contains(OrgEvents.TEAM_DELETED.detailType(), OrgEvents.EMPLOYEE_LEFT_TEAM.detailType());

        // The team's REMOVE delivered again (a retried batch): nothing left to remove, no new record; and the runner
        // itself, run again, finds nothing to remove.
        stream.process(removal);
        assertThat(stream.newRecords()).isEmpty();
        assertThat(CascadeRunner.overTable(dynamo, table).run(new TeamMemberships("abc", "web", "t1"))).isZero();
        assertThat(stream.newRecords()).isEmpty();
        assertExact();
    }

    @Test
    void deletedEmployee_membershipsInEveryTeamRemoved_othersKept() {
        Team web = team("web", "t1");
        Team ops = team("ops", "t2");
        Employee maureen = employee("maureen", "e1");
        Employee teri = employee("teri", "e3");
        put(member(web, maureen).toItem());
        put(member(ops, maureen).toItem());
        put(member(ops, teri).toItem());

        deletePart(IdReservation.Kind.EMPLOYEE, maureen.key(), "maureen");
        stream.drain();

        assertThat(memberships()).extracting(Membership::employeeId).containsExactly("teri");
        assertThat(stream.counter(OrgKeys.teamStats("ops"), Orgs.TEAM_MEMBERS)).isEqualTo(1);
        assertThat(stream.counter(OrgKeys.teamStats("web"), Orgs.TEAM_MEMBERS)).isZero();
        assertThat(stream.counter(OrgKeys.orgStats("abc"), Orgs.ORG_EMPLOYEES)).isEqualTo(1);
        assertExact();
    }

    @Test
    void teamDeletedAndCreatedAgain_beforeTheCascade_theNewTeamsMembershipStays() {
        Team first = team("web", "t1");
        Employee maureen = employee("maureen", "e1");
        Employee allie = employee("allie", "e2");
        put(member(first, maureen).toItem());
        put(member(first, allie).toItem());
        deletePart(IdReservation.Kind.TEAM, first.key(), "web");
        // The id is free again; the new team's membership overwrites the old one at the same key before the stream
        // processor reaches the deletion.
        Team second = team("web", "t9");
        put(member(second, maureen).toItem());

        stream.drain();

        assertThat(memberships()).singleElement().satisfies(m -> {
            assertThat(m.employeeId()).isEqualTo("maureen");
            assertThat(m.teamIncarnation()).isEqualTo("t9");
        });
        assertThat(stream.counter(OrgKeys.teamStats("web"), Orgs.TEAM_MEMBERS)).isEqualTo(1);
        assertThat(stream.counter(OrgKeys.orgStats("abc"), Orgs.ORG_TEAMS)).isEqualTo(1);
        assertExact();
    }

    @Test
    void teamDeletedWithNoStreamProcessor_verifyFindsTheCascadeUndone_repairRunsItAndRecomputes() {
        Team web = team("web", "t1");
        Team ops = team("ops", "t2");
        Employee maureen = employee("maureen", "e1");
        Employee allie = employee("allie", "e2");
        put(member(web, maureen).toItem());
        put(member(web, allie).toItem());
        put(member(ops, maureen).toItem());
        stream.drain();
        deletePart(IdReservation.Kind.TEAM, web.key(), "web");
        // No stream processor sees the deletion (it was down until the records expired, or predates the stream).
        stream.skip();
        Rebuilder rebuilder = new Rebuilder(dynamo, LocalDynamoDb.streamsClient(), table, DERIVATIONS, 2);

        VerificationReport found = rebuilder.verify();

        assertThat(found.undoneCascades()).containsExactly(new TeamMemberships("abc", "web", "t1").describe());
        assertThat(found.isExact()).isFalse();
        // A repair without the cascade runners fails before writing anything.
        assertThatThrownBy(() -> rebuilder.repair(count -> { })).hasMessageContaining("no cascade runner");
        assertThat(stream.counter(OrgKeys.orgStats("abc"), Orgs.ORG_TEAMS)).isEqualTo(2);

        RepairReport repair = rebuilder.withCascades(CascadeRunner.overTable(dynamo, table)).repair(count -> { });

        assertThat(repair.cascaded()).isEqualTo(2);
        assertThat(repair.isComplete()).isTrue();
        assertThat(memberships()).extracting(Membership::teamId).containsExactly("ops");
        assertThat(stream.counter(OrgKeys.teamStats("web"), Orgs.TEAM_MEMBERS)).isZero();
        assertThat(stream.counter(OrgKeys.orgStats("abc"), Orgs.ORG_MEMBERSHIPS)).isEqualTo(1);
        assertThat(stream.counter(OrgKeys.orgStats("abc"), Orgs.ORG_TEAMS)).isEqualTo(1);
        // The removals' own records reach the stream processor later: the repaired items already reflect them.
        stream.drain();
        assertThat(stream.counter(OrgKeys.orgStats("abc"), Orgs.ORG_MEMBERSHIPS)).isEqualTo(1);
        assertExact();
    }

    private Team team(String teamId, String incarnation) {
        Team team = new Team(teamId, "abc", teamId + "_team", null, T, incarnation);
        put(new IdReservation(IdReservation.Kind.TEAM, teamId, "abc").toItem());
        put(team.toItem());
        return team;
    }

    private Employee employee(String employeeId, String incarnation) {
        Employee employee = new Employee(employeeId, "abc", employeeId, employeeId + "@test.com", null, T, incarnation);
        put(new IdReservation(IdReservation.Kind.EMPLOYEE, employeeId, "abc").toItem());
        put(employee.toItem());
        return employee;
    }

    private static Membership member(Team team, Employee employee) {
        return new Membership("abc", team.teamId(), employee.employeeId(), null, T, team.incarnation(),
                employee.incarnation());
    }

    private void put(Map<String, AttributeValue> item) {
        dynamo.putItem(r -> r.tableName(table).item(item));
    }

    private void deletePart(IdReservation.Kind kind, Key key, String id) {
        dynamo.deleteItem(r -> r.tableName(table).key(key.toAttributeMap()));
        dynamo.deleteItem(r -> r.tableName(table).key(kind.key(id).toAttributeMap()));
    }

    private List<Membership> memberships() {
        return dynamo.scanPaginator(r -> r.tableName(table).consistentRead(true)).items().stream()
                .filter(Orgs.MEMBERSHIP::isTypeOf)
                .map(Membership::fromItem)
                .toList();
    }

    private void assertExact() {
        VerificationReport report = new Rebuilder(dynamo, LocalDynamoDb.streamsClient(), table, DERIVATIONS, 2).verify();
        assertThat(report.differences()).isEmpty();
        assertThat(report.behindItems()).isZero();
        assertThat(report.undoneCascades()).isEmpty();
        assertThat(dynamo.scanPaginator(r -> r.tableName(table)).items().stream()
                .filter(item -> item.containsKey(OrgKeys.LOOKUP_KEY))
                .allMatch(item -> Orgs.TEAM.isTypeOf(item) || Orgs.EMPLOYEE.isTypeOf(item)
                        || Orgs.MEMBERSHIP.isTypeOf(item))).isTrue();
    }
}
