package io.tally.domains.orgs;

import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.TableSchema;
import io.tally.core.domain.EntityResource;
import io.tally.core.domain.RouteContext;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.Field;
import io.tally.core.http.Fields;
import io.tally.core.http.Router;
import io.tally.core.store.Query;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.regex.Pattern;

/**
 * {@code POST /orgs/{orgId}/teams}, {@code DELETE /orgs/{orgId}/teams/{teamId}} and {@code GET /teams/{teamId}}
 * (the reverse lookup), and the same three for employees; their lists, {@code GET /orgs/{orgId}/teams} and
 * {@code .../employees}, are declared ({@link #TEAMS}, {@link #EMPLOYEES}). Teams and employees are stored
 * alike ({@link PartStore}), so their routes are written once; only their create bodies differ. A part's path
 * parameter is its kind's noun and {@code Id} ({@code teamId}), its collection the noun and {@code s}.
 */
record PartRoutes(RouteContext context, PartStore<Team> teams, PartStore<Employee> employees) {
    static final int NAME_MAX = 100;
    static final int EMAIL_MAX = 254;
    static final int DETAILS_MAX = 1_000;
    /** The users' shape check: one {@code @}, no spaces, a dot in the domain. */
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+\\.[^@\\s]+");
    private static final Field<String> TEAM_ID = Field.id("teamId");
    private static final Field<String> EMPLOYEE_ID = Field.id("employeeId");
    private static final Field<String> NAME = Field.string("name", 1, NAME_MAX).required();
    private static final Field<String> EMAIL_FIELD = Field.string("email", 3, EMAIL_MAX).required();
    private static final Field<String> DETAILS = Field.multiline("details", 1, DETAILS_MAX);
    /** The bodies of {@code POST /orgs/{orgId}/teams} and {@code POST /orgs/{orgId}/employees}. */
    private static final Fields TEAM = Fields.of(TEAM_ID, NAME, DETAILS);
    private static final Fields EMPLOYEE = Fields.of(EMPLOYEE_ID, NAME, EMAIL_FIELD, DETAILS);

    /** The list of an organisation's teams, by id; an unknown organisation is a 404 (once the cursor is found valid). */
    static final EntityResource<Team> TEAMS = parts("teams", Team.SCHEMA, OrgKeys::team, OrgKeys.TEAM_PREFIX);
    static final EntityResource<Employee> EMPLOYEES = parts("employees", Employee.SCHEMA, OrgKeys::employee,
            OrgKeys.EMPLOYEE_PREFIX);

    private static <T extends Record & OrgPart> EntityResource<T> parts(String collection, ItemSchema<T> schema,
                                                                        BiFunction<String, String, Key> key,
                                                                        String prefix) {
        String id = collection.substring(0, collection.length() - 1) + "Id";
        return EntityResource.at("/orgs/{orgId}/" + collection + "/{" + id + "}", schema,
                        ids -> key.apply(ids.get("orgId"), ids.get(id)))
                .list(Access.ADMIN, "An organisation's " + collection + ", by id",
                        ids -> Query.partition(OrgKeys.orgPk(ids.get("orgId"))).startsWith(prefix),
                        Set.of(TableSchema.PK, TableSchema.SK), EntityResource.exists("orgId", Orgs.ORGANISATION));
    }

    void register(Router router) {
        router.add("POST", "/orgs/{orgId}/teams", Access.ADMIN, request -> create(teams, TEAM, this::team, request))
                    .summary("Create a team").body(TEAM).returns(201, Team.class)
                .add("DELETE", "/orgs/{orgId}/teams/{teamId}", Access.ADMIN, request -> delete(teams, request))
                    .summary("Delete a team (the stream processor removes its memberships)").returns(200, Team.class)
                .add("GET", "/teams/{teamId}", Access.ADMIN, request -> get(teams, request))
                    .summary("A team by id, whatever its organisation").returns(200, Team.class)
                .add("POST", "/orgs/{orgId}/employees", Access.ADMIN,
                        request -> create(employees, EMPLOYEE, this::employee, request))
                    .summary("Create an employee").body(EMPLOYEE).returns(201, Employee.class)
                .add("DELETE", "/orgs/{orgId}/employees/{employeeId}", Access.ADMIN,
                        request -> delete(employees, request))
                    .summary("Delete an employee (the stream processor removes their memberships)")
                    .returns(200, Employee.class)
                .add("GET", "/employees/{employeeId}", Access.ADMIN, request -> get(employees, request))
                    .summary("An employee by id, whatever their organisation").returns(200, Employee.class);
    }

    private <T extends Record & OrgPart> ApiResponse create(PartStore<T> parts, Fields fields,
                                                            BiFunction<String, Body, T> parse, ApiRequest request) {
        String orgId = request.id("orgId");
        T part = parse.apply(orgId, Body.parse(request.body(), fields));
        parts.create(part);
        return ApiResponse.created(part, "/" + parts.kind().noun() + "s/" + part.id());
    }

    private Team team(String orgId, Body body) {
        String teamId = body.get(TEAM_ID);
        String name = body.get(NAME);
        String details = body.get(DETAILS);
        return new Team(context.idOrNew(teamId), orgId, name, details, context.now(), context.ids().next());
    }

    private Employee employee(String orgId, Body body) {
        String employeeId = body.get(EMPLOYEE_ID);
        String name = body.get(NAME);
        String email = body.get(EMAIL_FIELD);
        if (!EMAIL.matcher(email).matches()) {
            throw ApiException.validation("email", "'email' must be an e-mail address");
        }
        String details = body.get(DETAILS);
        return new Employee(context.idOrNew(employeeId), orgId, name, email, details, context.now(),
                context.ids().next());
    }

    /** The part by id through the reverse lookup. */
    private <T extends Record & OrgPart> ApiResponse get(PartStore<T> parts, ApiRequest request) {
        return ApiResponse.ok(parts.lookUp(request.id(parts.kind().noun() + "Id")));
    }

    /** 200 with the part as it was; its memberships are removed by the stream processor. */
    private <T extends Record & OrgPart> ApiResponse delete(PartStore<T> parts, ApiRequest request) {
        String orgId = request.id("orgId");
        return ApiResponse.ok(parts.delete(orgId, request.id(parts.kind().noun() + "Id")));
    }
}
