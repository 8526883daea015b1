package io.tally.writer.orgs;

import io.tally.core.orgs.IdReservation.Kind;
import io.tally.core.http.RouteContext;
import io.tally.core.http.Router;

/**
 * The wiring of organisations, teams and employees (seed 002): its stores over the table and the routes that use
 * them. The one place of the domain that holds the DynamoDB client.
 */
public final class OrgsDomain {
    private OrgsDomain() {
    }

    public static void register(Router router, RouteContext context) {
        OrgStore orgs = new OrgStore(context.dynamo(), context.table());
        PartStore teams = new PartStore(context.dynamo(), context.table(), Kind.TEAM);
        PartStore employees = new PartStore(context.dynamo(), context.table(), Kind.EMPLOYEE);
        new OrgRoutes(context, orgs).register(router);
        new TeamRoutes(context, orgs, teams).register(router);
        new EmployeeRoutes(context, orgs, employees).register(router);
        new MembershipRoutes(context, teams, employees, new MembershipStore(context.dynamo(), context.table()))
                .register(router);
    }
}
