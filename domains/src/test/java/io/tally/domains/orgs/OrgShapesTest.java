package io.tally.domains.orgs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.MalformedItemException;
import io.tally.core.http.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The items and the contract's JSON of seed 002, each declared once by its record, attribute for attribute. */
class OrgShapesTest {
    private static final Instant T = Instant.parse("2020-07-05T10:00:00.120Z");
    private static final String TS = "2020-07-05T10:00:00.120Z";

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    @Test
    void items_holdTheKeyTheTypeTheLookupKeyAndEveryPresentField() {
        assertThat(new Organisation("abc", "ABC", "Retail", T, T, 3).toItem()).isEqualTo(Map.of(
                "pk", s("ORG#abc"), "sk", s("#METADATA#abc"), "entityType", s("Organisation"), "orgId", s("abc"),
                "name", s("ABC"), "type", s("Retail"), "createdAt", s(TS), "updatedAt", s(TS),
                "version", AttributeValue.fromN("3")));
        assertThat(new Organisation("abc", "ABC", null, T, T, 1).toItem()).doesNotContainKey("type");
        assertThat(new Team("web", "abc", "web_team", "details", T, "i1").toItem()).isEqualTo(Map.of(
                "pk", s("ORG#abc"), "sk", s("#TEAM#web"), "entityType", s("Team"), "lookupKey", s("#TEAM#web"),
                "teamId", s("web"), "orgId", s("abc"), "name", s("web_team"), "details", s("details"),
                "createdAt", s(TS), "incarnation", s("i1")));
        assertThat(new Team("web", "abc", "web_team", null, T, "i1").toItem()).doesNotContainKey("details");
        assertThat(new Employee("e1", "abc", "Maureen", "m@test.com", null, T, "i2").toItem()).isEqualTo(Map.of(
                "pk", s("ORG#abc"), "sk", s("EMP#e1"), "entityType", s("Employee"), "lookupKey", s("EMP#e1"),
                "employeeId", s("e1"), "orgId", s("abc"), "name", s("Maureen"), "email", s("m@test.com"),
                "createdAt", s(TS), "incarnation", s("i2")));
        Map<String, AttributeValue> membership = new java.util.HashMap<>(Map.of(
                "pk", s("ORG#abc#TEAM#web"), "sk", s("ORG#abc#EMP#e1"), "entityType", s("Membership"),
                "lookupKey", s("ORG#abc#EMP#e1"), "orgId", s("abc"), "teamId", s("web"), "employeeId", s("e1"),
                "addedAt", s(TS), "teamIncarnation", s("i1"), "employeeIncarnation", s("i2")));
        assertThat(new Membership("abc", "web", "e1", null, T, "i1", "i2").toItem()).isEqualTo(membership);
        membership.put("role", s("lead"));
        assertThat(new Membership("abc", "web", "e1", "lead", T, "i1", "i2").toItem()).isEqualTo(membership);
        assertThat(new IdReservation(IdReservation.Kind.EMPLOYEE, "e1", "abc").toItem()).isEqualTo(Map.of(
                "pk", s("EMPLOYEE#e1"), "sk", s("#EMPLOYEEREF#"), "entityType", s("EmployeeRef"), "id", s("e1"),
                "orgId", s("abc")));
    }

    @Test
    void fromItem_missingFieldOrOtherKindOfReservation_isMalformed() {
        Map<String, AttributeValue> team = new java.util.HashMap<>(new Team("web", "abc", "w", null, T, "i1").toItem());
        team.remove("name");
        assertThatThrownBy(() -> Team.fromItem(team)).isInstanceOf(MalformedItemException.class);
        Map<String, AttributeValue> ref = new IdReservation(IdReservation.Kind.TEAM, "web", "abc").toItem();
        assertThatThrownBy(() -> IdReservation.fromItem(IdReservation.Kind.EMPLOYEE, ref))
                .isInstanceOf(MalformedItemException.class);
    }

    @Test
    void json_isTheContractsFieldsInOrder_nullsWritten_incarnationsLeftOut() {
        assertThat(Json.tree(new Organisation("abc", "ABC", null, T, T, 2)).toString()).isEqualTo(
                "{\"orgId\":\"abc\",\"name\":\"ABC\",\"type\":null,\"createdAt\":\"" + TS + "\",\"updatedAt\":\"" + TS
                        + "\",\"version\":2}");
        assertThat(Json.tree(new Team("web", "abc", "web_team", null, T, "i1")).toString()).isEqualTo(
                "{\"teamId\":\"web\",\"orgId\":\"abc\",\"name\":\"web_team\",\"details\":null,\"createdAt\":\"" + TS
                        + "\"}");
        assertThat(Json.tree(new Employee("e1", "abc", "Maureen", "m@test.com", "d", T, "i2")).toString()).isEqualTo(
                "{\"employeeId\":\"e1\",\"orgId\":\"abc\",\"name\":\"Maureen\",\"email\":\"m@test.com\","
                        + "\"details\":\"d\",\"createdAt\":\"" + TS + "\"}");
        assertThat(Json.tree(new Membership("abc", "web", "e1", null, T, "i1", "i2")).toString()).isEqualTo(
                "{\"orgId\":\"abc\",\"teamId\":\"web\",\"employeeId\":\"e1\",\"role\":null,\"addedAt\":\"" + TS + "\"}");
    }

    @Test
    void stats_areTheDeclaredCountersInOrder_zeroWhenNotCountedYet() {
        List<String> orgFields = new ArrayList<>(List.of("orgId"));
        orgFields.addAll(OrgFigures.ORG.type().counters());
        assertThat(orgFields).containsExactly("orgId", "teams", "employees", "memberships");
        assertThat(Json.tree(OrgFigures.ORG.answer("abc", Map.of())).fieldNames()).toIterable()
                .containsExactlyElementsOf(orgFields);
        assertThat(Json.tree(OrgFigures.ORG.answer("abc", Map.of("employees", 4L))).toString())
                .isEqualTo("{\"orgId\":\"abc\",\"teams\":0,\"employees\":4,\"memberships\":0}");
        assertThat(Json.tree(OrgRoutes.TeamStats.of("web", "abc", null)).toString())
                .isEqualTo("{\"teamId\":\"web\",\"orgId\":\"abc\",\"members\":0}");
        assertThat(OrgFigures.TEAM.type().counters()).containsExactly("members");
        assertThatThrownBy(() -> OrgRoutes.TeamStats.of("web", "abc", Map.of("entityType", s("OrgStats"))))
                .isInstanceOf(MalformedItemException.class);
    }
}
