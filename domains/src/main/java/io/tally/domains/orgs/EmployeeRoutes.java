package io.tally.domains.orgs;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.Page;
import io.tally.core.domain.RouteContext;
import io.tally.core.http.Router;
import io.tally.core.store.QueryPage;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * {@code POST} and {@code GET /orgs/{orgId}/employees}, {@code DELETE /orgs/{orgId}/employees/{employeeId}} and
 * {@code GET /employees/{employeeId}} (the reverse lookup).
 */
final class EmployeeRoutes {
    static final int NAME_MAX = 100;
    static final int EMAIL_MAX = 254;
    static final int DETAILS_MAX = 1_000;
    /** The users' shape check: one {@code @}, no spaces, a dot in the domain. */
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+\\.[^@\\s]+");

    private final RouteContext context;
    private final OrgStore orgs;
    private final PartStore employees;

    EmployeeRoutes(RouteContext context, OrgStore orgs, PartStore employees) {
        this.context = context;
        this.orgs = orgs;
        this.employees = employees;
    }

    void register(Router router) {
        router.add("POST", "/orgs/{orgId}/employees", Access.ADMIN, this::create)
                .add("GET", "/orgs/{orgId}/employees", Access.ADMIN, this::list)
                .add("DELETE", "/orgs/{orgId}/employees/{employeeId}", Access.ADMIN, this::delete)
                .add("GET", "/employees/{employeeId}", Access.ADMIN, this::get);
    }

    ApiResponse create(ApiRequest request) {
        String orgId = request.id("orgId");
        Body body = Body.parse(request.body(), Set.of("employeeId", "name", "email", "details"));
        String employeeId = body.optionalId("employeeId");
        String name = body.requiredString("name", 1, NAME_MAX);
        String email = body.requiredString("email", 3, EMAIL_MAX);
        if (!EMAIL.matcher(email).matches()) {
            throw ApiException.validation("email", "'email' must be an e-mail address");
        }
        String details = body.optionalString("details", 1, DETAILS_MAX);
        Employee employee = new Employee(employeeId == null ? context.ids().next() : employeeId, orgId, name, email,
                details, context.now(), context.ids().next());
        employees.create(orgId, employee.employeeId(), employee.toItem());
        return ApiResponse.created(OrgsJson.employee(employee), "/employees/" + employee.employeeId());
    }

    ApiResponse get(ApiRequest request) {
        return ApiResponse.ok(OrgsJson.employee(Employee.fromItem(employees.lookUp(request.id("employeeId")))));
    }

    ApiResponse list(ApiRequest request) {
        String orgId = request.id("orgId");
        int limit = Page.limit(request);
        String scope = "employees:" + orgId;
        Map<String, AttributeValue> start =
                context.cursors().decode(scope, request.queryParameter("cursor"), PartRequests.LIST_KEY);
        orgs.get(orgId);
        QueryPage page = employees.list(orgId, limit, start);
        List<ObjectNode> items = page.items().stream()
                .map(item -> OrgsJson.employee(Employee.fromItem(item)))
                .toList();
        return ApiResponse.ok(Page.body(items, context.cursors().encode(scope, page.nextKey())));
    }

    /** 200 with the employee as they were; their memberships are removed by the stream processor. */
    ApiResponse delete(ApiRequest request) {
        String orgId = request.id("orgId");
        String employeeId = request.id("employeeId");
        return ApiResponse.ok(OrgsJson.employee(Employee.fromItem(employees.delete(orgId, employeeId))));
    }
}
