package io.tally.domains.orgs;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.writer.TestApi;
import io.tally.writer.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Seed 002's contract over the real handler and DynamoDB Local: every route, its shapes, its errors. */
class OrgRoutesIT {
    private static final Instant START = Instant.parse("2020-07-05T10:00:00Z");

    private final TestClock clock = TestClock.stepping(START, Duration.ofSeconds(1));
    private final TestApi api = TestApi.onFreshTable(clock);

    @BeforeEach
    void abc() {
        assertThat(api.call("POST", "/orgs", "{\"orgId\":\"abc\",\"name\":\"ABC\",\"type\":\"Retail\"}").status())
                .isEqualTo(201);
    }

    @Test
    void orgs_createGetPatch_shapesVersionsAndPreconditions() {
        var generated = api.call("POST", "/orgs", "{\"name\":\"XYZ\"}");
        assertThat(generated.status()).isEqualTo(201);
        assertThat(generated.body().fieldNames()).toIterable()
                .containsExactly("orgId", "name", "type", "createdAt", "updatedAt", "version");
        assertThat(generated.body().get("type").isNull()).isTrue();
        assertThat(generated.text("orgId")).hasSize(26);
        assertThat(generated.headers()).containsEntry("Location", "/orgs/" + generated.text("orgId"));

        assertThat(api.call("POST", "/orgs", "{\"orgId\":\"abc\",\"name\":\"Again\"}").errorCode()).isEqualTo("conflict");
        var got = api.call("GET", "/orgs/abc");
        assertThat(got.status()).isEqualTo(200);
        assertThat(got.text("type")).isEqualTo("Retail");
        assertThat(got.headers()).containsEntry("ETag", "\"1\"");

        var patched = api.call("PATCH", "/orgs/abc", "{\"name\":\"ABC Ltd\"}", Map.of("If-Match", "\"1\""));
        assertThat(patched.status()).isEqualTo(200);
        assertThat(patched.text("name")).isEqualTo("ABC Ltd");
        assertThat(patched.body().get("version").asLong()).isEqualTo(2);
        var stale = api.call("PATCH", "/orgs/abc", "{\"type\":\"Bank\"}", Map.of("If-Match", "\"1\""));
        assertThat(stale.status()).isEqualTo(412);
        assertThat(stale.errorCode()).isEqualTo("precondition_failed");
        assertThat(api.call("PATCH", "/orgs/nobody", "{\"name\":\"N\"}").status()).isEqualTo(404);
        assertThat(api.call("GET", "/orgs/nobody").errorCode()).isEqualTo("not_found");
    }

    /** The messages as docs/api.md gives them (the resource's, named "organisation" rather than the path's "org"). */
    @Test
    void orgs_refusals_sayWhatWasRefused() {
        assertThat(message(api.call("POST", "/orgs", "{\"orgId\":\"abc\",\"name\":\"Again\"}")))
                .isEqualTo("organisation 'abc' already exists");
        assertThat(message(api.call("PATCH", "/orgs/abc", "{\"type\":\"Bank\"}", Map.of("If-Match", "\"7\""))))
                .isEqualTo("organisation 'abc' is at version 1, not 7");
        assertThat(message(api.call("PATCH", "/orgs/nobody", "{\"name\":\"N\"}", Map.of("If-Match", "*"))))
                .isEqualTo("organisation 'nobody' does not exist");
        assertThat(message(api.call("GET", "/orgs/nobody"))).isEqualTo("organisation 'nobody' does not exist");
        var nothing = api.call("PATCH", "/orgs/abc", "{}");
        nothing.assertClientError("validation_failed", null);
        assertThat(message(nothing)).isEqualTo("nothing to change: give name or type");
        var patched = api.call("PATCH", "/orgs/abc", "{\"type\":\"Bank\"}");
        assertThat(patched.headers()).containsEntry("ETag", "\"2\"");
        assertThat(patched.text("name")).isEqualTo("ABC");
        assertThat(api.call("POST", "/orgs", "{\"name\":\"N\",\"size\":3}").errorCode())
                .isEqualTo("validation_failed");
    }

    private static String message(TestApi.Response response) {
        return response.body().path("error").path("message").asText(null);
    }

    @Test
    void teams_createListLookUpDelete_idsUniqueAcrossOrganisations() {
        var team = api.call("POST", "/orgs/abc/teams", "{\"teamId\":\"web\",\"name\":\"web_team\",\"details\":\"web development team\"}");
        assertThat(team.status()).isEqualTo(201);
        assertThat(team.body().fieldNames()).toIterable().containsExactly("teamId", "orgId", "name", "details", "createdAt");
        api.call("POST", "/orgs/abc/teams", "{\"teamId\":\"dev_ops\",\"name\":\"dev_ops\"}");
        api.call("POST", "/orgs", "{\"orgId\":\"other\",\"name\":\"Other\"}");

        assertThat(api.call("POST", "/orgs/other/teams", "{\"teamId\":\"web\",\"name\":\"w\"}").status()).isEqualTo(409);
        assertThat(api.call("POST", "/orgs/nobody/teams", "{\"teamId\":\"x\",\"name\":\"w\"}").status()).isEqualTo(404);

        var byId = api.call("GET", "/teams/web");
        assertThat(byId.status()).isEqualTo(200);
        assertThat(byId.body()).isEqualTo(team.body());
        var list = api.call("GET", "/orgs/abc/teams?limit=1");
        assertThat(list.body().get("items")).hasSize(1);
        var next = api.call("GET", "/orgs/abc/teams?limit=1&cursor=" + list.text("cursor"));
        assertThat(next.body().get("items").get(0).get("teamId").asText()).isEqualTo("web");
        assertThat(next.body().get("cursor").isNull()).isTrue();
        assertThat(api.call("GET", "/orgs/abc/teams?cursor=forged").errorField()).isEqualTo("cursor");
        assertThat(api.call("GET", "/orgs/nobody/teams").status()).isEqualTo(404);

        var deleted = api.call("DELETE", "/orgs/abc/teams/web");
        assertThat(deleted.status()).isEqualTo(200);
        assertThat(deleted.text("teamId")).isEqualTo("web");
        assertThat(api.call("DELETE", "/orgs/abc/teams/web").status()).isEqualTo(404);
        assertThat(api.call("GET", "/teams/web").status()).isEqualTo(404);
        // The id is free again, in any organisation.
        assertThat(api.call("POST", "/orgs/other/teams", "{\"teamId\":\"web\",\"name\":\"w\"}").status()).isEqualTo(201);
    }

    @Test
    void employees_createListLookUpDelete() {
        var employee = api.call("POST", "/orgs/abc/employees",
                "{\"employeeId\":\"maureen\",\"name\":\"Maureen\",\"email\":\"maureen@test.com\"}");
        assertThat(employee.status()).isEqualTo(201);
        assertThat(employee.body().fieldNames()).toIterable()
                .containsExactly("employeeId", "orgId", "name", "email", "details", "createdAt");
        assertThat(employee.body().get("details").isNull()).isTrue();
        assertThat(api.call("POST", "/orgs/abc/employees",
                "{\"employeeId\":\"maureen\",\"name\":\"M\",\"email\":\"m@test.com\"}").status()).isEqualTo(409);
        assertThat(api.call("GET", "/employees/maureen").body()).isEqualTo(employee.body());
        assertThat(api.call("GET", "/orgs/abc/employees").body().get("items")).hasSize(1);
        assertThat(api.call("DELETE", "/orgs/abc/employees/maureen").status()).isEqualTo(200);
        assertThat(api.call("GET", "/employees/maureen").status()).isEqualTo(404);
        assertThat(api.call("GET", "/orgs/abc/employees").body().get("items")).isEmpty();
    }

    @Test
    void members_putTwiceListBothWaysDelete() {
        api.call("POST", "/orgs/abc/teams", "{\"teamId\":\"web\",\"name\":\"web_team\"}");
        api.call("POST", "/orgs/abc/teams", "{\"teamId\":\"ops\",\"name\":\"dev_ops\"}");
        api.call("POST", "/orgs/abc/employees", "{\"employeeId\":\"maureen\",\"name\":\"Maureen\",\"email\":\"m@test.com\"}");

        var added = api.call("PUT", "/orgs/abc/teams/web/members/maureen", "{\"role\":\"lead\"}");
        assertThat(added.status()).isEqualTo(201);
        assertThat(added.body().fieldNames()).toIterable().containsExactly("orgId", "teamId", "employeeId", "role", "addedAt");
        var changed = api.call("PUT", "/orgs/abc/teams/web/members/maureen", "{\"role\":\"member\"}");
        assertThat(changed.status()).isEqualTo(200);
        assertThat(changed.text("role")).isEqualTo("member");
        assertThat(changed.text("addedAt")).isEqualTo(added.text("addedAt"));
        assertThat(api.call("PUT", "/orgs/abc/teams/ops/members/maureen", null).status()).isEqualTo(201);

        assertThat(api.call("GET", "/orgs/abc/teams/web/members").body().get("items")).hasSize(1);
        List<String> teams = new ArrayList<>();
        api.call("GET", "/employees/maureen/teams").body().get("items").forEach(m -> teams.add(m.get("teamId").asText()));
        assertThat(teams).containsExactly("ops", "web");

        assertThat(api.call("PUT", "/orgs/abc/teams/nope/members/maureen", "{}").status()).isEqualTo(404);
        assertThat(api.call("PUT", "/orgs/abc/teams/web/members/nobody", "{}").status()).isEqualTo(404);
        assertThat(api.call("PUT", "/orgs/other/teams/web/members/maureen", "{}").status()).isEqualTo(404);

        assertThat(api.call("DELETE", "/orgs/abc/teams/web/members/maureen").status()).isEqualTo(200);
        assertThat(api.call("DELETE", "/orgs/abc/teams/web/members/maureen").errorCode()).isEqualTo("not_found");
        assertThat(api.call("GET", "/orgs/abc/teams/web/members").body().get("items")).isEmpty();
    }

    @Test
    void stats_existingSubjectsReadAsZeros_unknownOnesAre404() {
        api.call("POST", "/orgs/abc/teams", "{\"teamId\":\"web\",\"name\":\"web_team\"}");
        var org = api.call("GET", "/stats/orgs/abc");
        assertThat(org.status()).isEqualTo(200);
        assertThat(org.body().toString()).isEqualTo("{\"orgId\":\"abc\",\"teams\":0,\"employees\":0,\"memberships\":0}");
        var team = api.call("GET", "/stats/teams/web");
        assertThat(team.body().toString()).isEqualTo("{\"teamId\":\"web\",\"orgId\":\"abc\",\"members\":0}");
        assertThat(api.call("GET", "/stats/orgs/nobody").status()).isEqualTo(404);
        assertThat(api.call("GET", "/stats/teams/nobody").status()).isEqualTo(404);
        assertThat(api.call("GET", "/stats/global").body().fieldNames()).toIterable().containsSubsequence("orgs", "employees");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "POST|/orgs|{\"name\":\"\"}|validation_failed|name",
            "POST|/orgs|{\"name\":\"A\",\"size\":3}|validation_failed|size",
            "POST|/orgs|[1]|bad_request|",
            "POST|/orgs/abc/teams|{\"teamId\":\"a#b\",\"name\":\"x\"}|validation_failed|teamId",
            "POST|/orgs/abc/employees|{\"name\":\"x\",\"email\":\"nope\"}|validation_failed|email",
            "PUT|/orgs/abc/teams/web/members/e1|{\"role\":5}|validation_failed|role",
            "GET|/orgs/abc/teams?limit=0||bad_request|limit",
            "GET|/employees/a%23b/teams||validation_failed|employeeId",
            "DELETE|/orgs/abc||method_not_allowed|",
    })
    void badInput_isTheErrorEnvelope_never500(String method, String path, String body, String code, String field) {
        api.call(method, path, body).assertClientError(code, field);
    }
}
