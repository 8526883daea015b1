package io.tally.domains.orgs;

import static io.tally.core.demo.DemoApi.body;

import io.tally.core.demo.DemoApi;
import java.io.IOException;

/** Seed 002's organisation ABC: its teams mobile_team, web_team and dev_ops, its employees Maureen, Allie and Teri. */
final class OrgsDemo {
    /** The seed's organisation. */
    static final String SEED_ORG = "abc";

    private OrgsDemo() {
    }

    static void seed(DemoApi api) throws IOException, InterruptedException {
        api.write("POST", "/orgs", body("orgId", SEED_ORG, "name", "ABC", "type", "Retail"));
        api.write("POST", "/orgs/abc/teams", body("teamId", "mobile_team", "name", "mobile_team",
                "details", "mobile app team"));
        api.write("POST", "/orgs/abc/teams", body("teamId", "web_team", "name", "web_team",
                "details", "web development team"));
        api.write("POST", "/orgs/abc/teams", body("teamId", "dev_ops", "name", "dev_ops", "details", "devops team"));
        api.write("POST", "/orgs/abc/employees", body("employeeId", "maureen", "name", "Maureen",
                "email", "maureen@test.com", "details", "Excepteur sint occaecat cupidatat non proident"));
        api.write("POST", "/orgs/abc/employees", body("employeeId", "allie", "name", "Allie",
                "email", "allie@test.com", "details", "Lorem ipsum dolor sit amet, consectetur adipiscing elit"));
        api.write("POST", "/orgs/abc/employees", body("employeeId", "teri", "name", "Teri",
                "email", "teri@test.com", "details", "Nemo enim ipsam voluptatem quia voluptas sit"));
        api.write("PUT", "/orgs/abc/teams/web_team/members/maureen", body("role", "developer"));
        api.write("PUT", "/orgs/abc/teams/dev_ops/members/maureen", body("role", "on call"));
        api.write("PUT", "/orgs/abc/teams/mobile_team/members/allie", body("role", "lead"));
        api.write("PUT", "/orgs/abc/teams/dev_ops/members/teri", body());
    }
}
