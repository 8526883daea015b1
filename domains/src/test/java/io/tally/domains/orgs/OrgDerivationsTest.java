package io.tally.domains.orgs;

import static io.tally.core.derive.DerivationCase.deltas;
import static io.tally.core.derive.DerivationCase.event;
import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.ShardSettings;
import io.tally.core.derive.CounterRef;
import io.tally.core.derive.Derivation;
import io.tally.core.derive.DerivationCase;
import io.tally.core.derive.IntendedChanges;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.users.SharedStats;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class OrgDerivationsTest {
    private static final Instant T = Instant.parse("2020-07-05T10:00:00.000Z");
    private static final Organisation ORG = new Organisation("abc", "ABC", "Retail", T, T, 1);
    private static final Team TEAM = new Team("web", "abc", "web_team", "web development team", T, "ti1");
    private static final Employee EMPLOYEE = new Employee("e1", "abc", "Maureen", "maureen@test.com", null, T, "ei1");
    private static final Membership MEMBERSHIP = new Membership("abc", "web", "e1", "lead", T, "ti1", "ei1");

    private static final CounterRef GLOBAL_ORGS = SharedStats.global(Orgs.GLOBAL_ORGS);
    private static final CounterRef GLOBAL_EMPLOYEES = SharedStats.global(Orgs.GLOBAL_EMPLOYEES);
    private static final CounterRef ORG_TEAMS = CounterRef.of(OrgFigures.ORG.type(), "abc", Orgs.ORG_TEAMS);
    private static final CounterRef ORG_EMPLOYEES = CounterRef.of(OrgFigures.ORG.type(), "abc", Orgs.ORG_EMPLOYEES);
    private static final CounterRef ORG_MEMBERSHIPS = CounterRef.of(OrgFigures.ORG.type(), "abc", Orgs.ORG_MEMBERSHIPS);
    private static final CounterRef TEAM_MEMBERS = CounterRef.of(OrgFigures.TEAM.type(), "web", Orgs.TEAM_MEMBERS);

    /** The domain's derivations as the registry joins them with its views: the figures' deltas are the views'. */
    private static final Derivations JOINED = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);

    private static Derivation joined(io.tally.core.EntityType type) {
        return JOINED.forType(type).orElseThrow();
    }

    static Stream<Arguments> cases() {
        Membership rejoined = new Membership("abc", "web", "e1", null, T.plusSeconds(5), "ti2", "ei1");
        return Stream.of(
                row(joined(Orgs.ORGANISATION), new DerivationCase(
                        "insert_organisation_countsGlobalOrgsAndAnnouncesOrgCreated", null, ORG.toItem(),
                        deltas(GLOBAL_ORGS, 1), Map.of(),
                        List.of(event(OrgEvents.ORG_CREATED.detailType(), "abc",
                                "orgId", "abc", "name", "ABC", "type", "Retail"))), List.of()),
                row(joined(Orgs.ORGANISATION), new DerivationCase(
                        "modify_renamedOrganisation_changesNothing", ORG.toItem(),
                        new Organisation("abc", "ABC Ltd", "Retail", T, T, 2).toItem(), Map.of(), Map.of(), List.of()),
                        List.of()),
                row(joined(Orgs.TEAM), new DerivationCase(
                        "insert_team_countsTheOrganisationsTeamsAndAnnouncesTeamCreated", null, TEAM.toItem(),
                        deltas(ORG_TEAMS, 1), Map.of(),
                        List.of(event(OrgEvents.TEAM_CREATED.detailType(), "web", "teamId", "web", "orgId", "abc",
                                "name", "web_team", "createdAt", "2020-07-05T10:00:00.000Z"))), List.of()),
                row(joined(Orgs.TEAM), new DerivationCase(
                        "remove_team_uncountsAndRemovesItsMembershipsInTurn", TEAM.toItem(), null,
                        deltas(ORG_TEAMS, -1), Map.of(),
                        List.of(event(OrgEvents.TEAM_DELETED.detailType(), "web", "teamId", "web", "orgId", "abc",
                                "name", "web_team", "createdAt", "2020-07-05T10:00:00.000Z"))),
                        List.of(new TeamMemberships("abc", "web", "ti1"))),
                row(joined(Orgs.EMPLOYEE), new DerivationCase(
                        "insert_employee_countsHeadCountAndGlobalEmployees", null, EMPLOYEE.toItem(),
                        deltas(ORG_EMPLOYEES, 1, GLOBAL_EMPLOYEES, 1), Map.of(),
                        List.of(event(OrgEvents.EMPLOYEE_CREATED.detailType(), "e1", "employeeId", "e1", "orgId", "abc",
                                "name", "Maureen", "createdAt", "2020-07-05T10:00:00.000Z"))), List.of()),
                row(joined(Orgs.EMPLOYEE), new DerivationCase(
                        "remove_employee_uncountsAndRemovesTheirMembershipsInTurn", EMPLOYEE.toItem(), null,
                        deltas(ORG_EMPLOYEES, -1, GLOBAL_EMPLOYEES, -1), Map.of(),
                        List.of(event(OrgEvents.EMPLOYEE_DELETED.detailType(), "e1", "employeeId", "e1", "orgId", "abc",
                                "name", "Maureen", "createdAt", "2020-07-05T10:00:00.000Z"))),
                        List.of(new EmployeeMemberships("abc", "e1", "ei1"))),
                row(joined(Orgs.MEMBERSHIP), new DerivationCase(
                        "insert_membership_countsTeamMembersAndOrgMembershipsAndAnnouncesJoined", null,
                        MEMBERSHIP.toItem(), deltas(TEAM_MEMBERS, 1, ORG_MEMBERSHIPS, 1), Map.of(),
                        List.of(joinedOrLeft(OrgEvents.EMPLOYEE_JOINED_TEAM.detailType(), MEMBERSHIP))), List.of()),
                row(joined(Orgs.MEMBERSHIP), new DerivationCase(
                        "remove_membership_uncountsAndAnnouncesLeft", MEMBERSHIP.toItem(), null,
                        deltas(TEAM_MEMBERS, -1, ORG_MEMBERSHIPS, -1), Map.of(),
                        List.of(joinedOrLeft(OrgEvents.EMPLOYEE_LEFT_TEAM.detailType(), MEMBERSHIP))), List.of()),
                row(joined(Orgs.MEMBERSHIP), new DerivationCase(
                        "modify_roleChanged_noDeltasNoEvents", MEMBERSHIP.toItem(),
                        new Membership("abc", "web", "e1", "member", T, "ti1", "ei1").toItem(),
                        Map.of(), Map.of(), List.of()), List.of()),
                row(joined(Orgs.MEMBERSHIP), new DerivationCase(
                        "modify_overwrittenByALaterTeamsMembership_leftThenJoined", MEMBERSHIP.toItem(),
                        rejoined.toItem(), Map.of(), Map.of(),
                        List.of(joinedOrLeft(OrgEvents.EMPLOYEE_LEFT_TEAM.detailType(), MEMBERSHIP),
                                joinedOrLeft(OrgEvents.EMPLOYEE_JOINED_TEAM.detailType(), rejoined))), List.of()));
    }

    private static Arguments row(Derivation derivation, DerivationCase change, List<?> cascades) {
        return Arguments.of(change, derivation, cascades);
    }

    private static io.tally.core.events.DomainEvent joinedOrLeft(String type, Membership m) {
        return event(type, m.teamId() + "/" + m.employeeId(), "orgId", m.orgId(), "teamId", m.teamId(),
                "employeeId", m.employeeId(), "role", m.role(), "addedAt", io.tally.core.Timestamps.format(m.addedAt()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void change_tableCase_derivesExpectedDeltasEventsAndCascades(DerivationCase change, Derivation derivation,
                                                                 List<?> cascades) {
        change.assertDerivedBy(derivation, cascades);
    }

    @Test
    void unreadableImage_isAProblemAndRemovesNothingInTurn() {
        Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> garbled =
                DerivationCase.with(TEAM.toItem(), Team.INCARNATION, null);
        DerivationCase.assertUnreadable(joined(Orgs.TEAM), garbled);
        IntendedChanges removed = joined(Orgs.TEAM).derive(DerivationCase.RECORD_ID, garbled, null);
        assertThat(removed.cascades()).isEmpty();
        DerivationCase.assertUnreadable(joined(Orgs.EMPLOYEE), TEAM.toItem());
        DerivationCase.assertUnreadable(joined(Orgs.MEMBERSHIP), EMPLOYEE.toItem());
    }

    @Test
    void keys_ofTheCountersAreTheDeclaredOnes() {
        assertThat(ORG_TEAMS.key()).isEqualTo(OrgKeys.orgStats("abc"));
        assertThat(TEAM_MEMBERS.key()).isEqualTo(OrgKeys.teamStats("web"));
    }
}
