package io.tally.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Seed 002 over HTTP on the whole local pipeline: head counts and team sizes from the stream, and the cascade of a
 * deleted team and a deleted employee (their memberships removed by the stream processor, the counts following).
 */
class OrgsPipelineIT {
    private static LocalRunner runner;
    private static Api api;

    @BeforeAll
    static void start() throws Exception {
        runner = LocalRunner.start(RunnerSettings.ephemeral());
        api = new Api(runner.baseUri());
    }

    @AfterAll
    static void stop() {
        if (runner != null) {
            runner.close();
        }
    }

    @Test
    void deletes_cascadeToMemberships_andTheCountsFollow() throws Exception {
        api.ok("POST", "/orgs", "{\"orgId\":\"abc\",\"name\":\"ABC\",\"type\":\"Retail\"}");
        for (String team : new String[] {"mobile_team", "web_team", "dev_ops"}) {
            api.ok("POST", "/orgs/abc/teams", "{\"teamId\":\"" + team + "\",\"name\":\"" + team + "\"}");
        }
        for (String employee : new String[] {"maureen", "allie", "teri"}) {
            api.ok("POST", "/orgs/abc/employees", "{\"employeeId\":\"" + employee + "\",\"name\":\"" + employee
                    + "\",\"email\":\"" + employee + "@test.com\"}");
        }
        api.ok("PUT", "/orgs/abc/teams/web_team/members/maureen", "{\"role\":\"developer\"}");
        api.ok("PUT", "/orgs/abc/teams/web_team/members/allie", "{}");
        api.ok("PUT", "/orgs/abc/teams/dev_ops/members/maureen", "{}");
        api.ok("PUT", "/orgs/abc/teams/mobile_team/members/teri", "{}");
        runner.awaitDrained(Api.DRAIN_TIMEOUT);

        assertThat(api.get("/stats/orgs/abc").toString())
                .isEqualTo("{\"orgId\":\"abc\",\"teams\":3,\"employees\":3,\"memberships\":4}");
        assertThat(api.get("/stats/teams/web_team").toString())
                .isEqualTo("{\"teamId\":\"web_team\",\"orgId\":\"abc\",\"members\":2}");
        assertThat(Api.ids(api.get("/employees/maureen/teams"), "teamId")).containsExactly("dev_ops", "web_team");

        api.ok("DELETE", "/orgs/abc/teams/web_team", null);
        api.ok("DELETE", "/orgs/abc/employees/teri", null);

        eventually(() -> api.get("/stats/orgs/abc").toString(),
                "{\"orgId\":\"abc\",\"teams\":2,\"employees\":2,\"memberships\":1}");
        assertThat(Api.ids(api.get("/employees/maureen/teams"), "teamId")).containsExactly("dev_ops");
        assertThat(api.get("/orgs/abc/teams/mobile_team/members").path("items")).isEmpty();
        assertThat(api.call("GET", "/stats/teams/web_team", null).status()).isEqualTo(404);
        assertThat(api.get("/stats/teams/mobile_team").path("members").asLong()).isZero();
        JsonNode global = api.get("/stats/global");
        assertThat(global.path("orgs").asLong()).isEqualTo(1);
        assertThat(global.path("employees").asLong()).isEqualTo(2);
        runner.awaitDrained(Api.DRAIN_TIMEOUT);
        assertThat(Api.verify(runner).isExact()).isTrue();
    }

    /** The cascade's own records reach the stream after the deletes: poll until the figures follow. */
    private static void eventually(Supplier<String> actual, String expected) throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (!expected.equals(actual.get()) && Instant.now().isBefore(deadline)) {
            Thread.sleep(100);
        }
        assertThat(actual.get()).isEqualTo(expected);
    }
}
