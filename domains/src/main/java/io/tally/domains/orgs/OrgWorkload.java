package io.tally.domains.orgs;

import io.tally.core.Key;
import io.tally.core.workload.AbstractWorkloadPart;
import io.tally.core.workload.WorkloadContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The organisations part of the test kit's workload: organisations, teams, employees and memberships written as the
 * writer service writes them, deletes of teams and employees (their memberships left for the stream processor's
 * cascade), and teams and employees created again under a freed id, so that a membership of the new one may overwrite a
 * stale one at the same key before the cascade reaches it.
 */
final class OrgWorkload extends AbstractWorkloadPart {
    private final List<String> orgs = new ArrayList<>();
    private final Map<String, Team> teams = new LinkedHashMap<>();
    private final Map<String, Employee> employees = new LinkedHashMap<>();
    private final Map<Key, Membership> memberships = new LinkedHashMap<>();
    private final List<String> freedTeams = new ArrayList<>();
    private final List<String> freedEmployees = new ArrayList<>();

    OrgWorkload(WorkloadContext context) {
        super(context, "o", 50, false);
    }

    @Override
    public void step() {
        Instant now = now();
        int roll = random.nextInt(100);
        if (orgs.isEmpty() || roll < 5) {
            String orgId = id();
            orgs.add(orgId);
            put(new Organisation(orgId, "Org " + orgId, random.nextBoolean() ? "Retail" : null, now, now, 1).toItem());
        } else if (roll < 20 || teams.isEmpty()) {
            createTeam(now);
        } else if (roll < 38 || employees.isEmpty()) {
            createEmployee(now);
        } else if (roll < 78) {
            putMembership(now);
        } else if (roll < 86) {
            removeMembership();
        } else if (roll < 93) {
            deletePart(teams, freedTeams, IdReservation.Kind.TEAM, Membership::teamId);
        } else {
            deletePart(employees, freedEmployees, IdReservation.Kind.EMPLOYEE, Membership::employeeId);
        }
    }

    private String orgFor() {
        return orgs.get(random.nextInt(orgs.size()));
    }

    private void createTeam(Instant now) {
        // A freed id comes back in its old organisation most of the time: its stale memberships share the keys.
        Team team = new Team(reuseOr(freedTeams), orgFor(), "Team", random.nextBoolean() ? "details" : null, now, id());
        team = random.nextInt(4) > 0 && !employees.isEmpty() ? inOrgOf(team) : team;
        teams.put(team.teamId(), team);
        put(new IdReservation(IdReservation.Kind.TEAM, team.teamId(), team.orgId()).toItem());
        put(team.toItem());
    }

    private Team inOrgOf(Team team) {
        String orgId = pick(new ArrayList<>(employees.values())).orgId();
        return new Team(team.teamId(), orgId, team.name(), team.details(), team.createdAt(), team.incarnation());
    }

    private void createEmployee(Instant now) {
        String orgId = teams.isEmpty() || random.nextInt(4) == 0 ? orgFor() : pick(new ArrayList<>(teams.values())).orgId();
        Employee employee = new Employee(reuseOr(freedEmployees), orgId, "Employee", "e@example.com", null, now, id());
        employees.put(employee.employeeId(), employee);
        put(new IdReservation(IdReservation.Kind.EMPLOYEE, employee.employeeId(), orgId).toItem());
        put(employee.toItem());
    }

    private void putMembership(Instant now) {
        if (teams.isEmpty() || employees.isEmpty()) {
            return;
        }
        Team team = pick(new ArrayList<>(teams.values()));
        List<Employee> colleagues = employees.values().stream().filter(e -> e.orgId().equals(team.orgId())).toList();
        if (colleagues.isEmpty()) {
            return;
        }
        Employee employee = pick(colleagues);
        Key key = new Membership(team.orgId(), team.teamId(), employee.employeeId(), null, now, "", "").key();
        Membership existing = memberships.get(key);
        Membership membership = new Membership(team.orgId(), team.teamId(), employee.employeeId(),
                random.nextBoolean() ? "role" + random.nextInt(3) : null, existing == null ? now : existing.addedAt(),
                team.incarnation(), employee.incarnation());
        memberships.put(key, membership);
        put(membership.toItem());
    }

    private void removeMembership() {
        if (memberships.isEmpty()) {
            return;
        }
        Key key = pick(new ArrayList<>(memberships.keySet()));
        memberships.remove(key);
        delete(key);
    }

    /** Deletes a team or an employee and frees its id; its memberships are left for the cascade, and forgotten. */
    private <T extends OrgPart> void deletePart(Map<String, T> parts, List<String> freed, IdReservation.Kind kind,
                                               Function<Membership, String> partOf) {
        if (parts.isEmpty()) {
            return;
        }
        T part = pick(new ArrayList<>(parts.values()));
        parts.remove(part.id());
        freed.add(part.id());
        memberships.values().removeIf(m -> partOf.apply(m).equals(part.id()));
        delete(part.key());
        delete(kind.key(part.id()));
    }
}
