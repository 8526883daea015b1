package io.tally.domains.orgs;

import io.tally.core.domain.RouteContext;
import io.tally.core.http.Access;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.Field;
import io.tally.core.http.Fields;
import io.tally.core.http.Router;

/**
 * {@code PUT}, {@code DELETE /orgs/{orgId}/teams/{teamId}/members/{employeeId}}, {@code GET .../members} (a
 * team's memberships) and {@code GET /employees/{employeeId}/teams} (an employee's, through the reverse lookup).
 */
record MembershipRoutes(RouteContext context, PartStore<Team> teams, PartStore<Employee> employees, MembershipStore memberships) {
    static final int ROLE_MAX = 100;
    private static final Field<String> ROLE = Field.string("role", 1, ROLE_MAX);
    /** The body of {@code PUT .../members/{employeeId}}, which may be left out (no role). */
    private static final Fields PUT = Fields.of(ROLE);

    void register(Router router) {
        router.add("PUT", "/orgs/{orgId}/teams/{teamId}/members/{employeeId}", Access.ADMIN, this::put)
                    .summary("Add an employee to a team (201) or change their role (200)").optionalBody(PUT)
                    .returns(201, Membership.class)
                .add("DELETE", "/orgs/{orgId}/teams/{teamId}/members/{employeeId}", Access.ADMIN, this::delete)
                    .summary("Remove an employee from a team").returns(200, Membership.class)
                .add("GET", "/orgs/{orgId}/teams/{teamId}/members", Access.ADMIN, this::ofTeam)
                    .summary("A team's memberships, by employee").page(Membership.class)
                .add("GET", "/employees/{employeeId}/teams", Access.ADMIN, this::ofEmployee)
                    .summary("An employee's memberships, by team").page(Membership.class);
    }

    /** 201 when the employee joins the team, 200 when their role changes (the role is replaced, absent is null). */
    ApiResponse put(ApiRequest request) {
        String orgId = request.id("orgId");
        String teamId = request.id("teamId");
        String employeeId = request.id("employeeId");
        String role = Body.parseOptional(request.body(), PUT).get(ROLE);
        Team team = teams.get(orgId, teamId);
        Employee employee = employees.get(orgId, employeeId);
        MembershipStore.Put put = memberships.put(team, employee, role, context.now());
        String location = "/orgs/" + orgId + "/teams/" + teamId + "/members/" + employeeId;
        return put.created() ? ApiResponse.created(put.membership(), location) : ApiResponse.ok(put.membership());
    }

    ApiResponse delete(ApiRequest request) {
        String orgId = request.id("orgId");
        String teamId = request.id("teamId");
        String employeeId = request.id("employeeId");
        return ApiResponse.ok(memberships.delete(orgId, teamId, employeeId));
    }

    ApiResponse ofTeam(ApiRequest request) {
        String orgId = request.id("orgId");
        String teamId = request.id("teamId");
        return context.page(request, "members:" + orgId + "/" + teamId, MembershipStore.TEAM_LIST_KEY,
                (limit, start) -> memberships.ofTeam(teams.get(orgId, teamId), limit, start), Membership::fromItem);
    }

    ApiResponse ofEmployee(ApiRequest request) {
        String employeeId = request.id("employeeId");
        return context.page(request, "teams-of:" + employeeId, MembershipStore.EMPLOYEE_LIST_KEY,
                (limit, start) -> memberships.ofEmployee(employees.lookUp(employeeId), limit, start),
                Membership::fromItem);
    }
}
