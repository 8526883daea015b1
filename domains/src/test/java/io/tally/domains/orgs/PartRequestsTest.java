package io.tally.domains.orgs;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.domains.orgs.IdReservation.Kind;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

class PartRequestsTest {
    private static final Instant T = Instant.parse("2020-07-05T10:00:00.000Z");

    @Test
    void create_checksTheOrganisation_thenPutsTheReservationAndThePartOnlyWhereNothingIs() {
        Employee employee = new Employee("e1", "abc", "Maureen", "m@test.com", null, T, "i2");
        List<TransactWriteItem> actions =
                PartRequests.create("t", Kind.EMPLOYEE, "abc", "e1", employee.toItem()).transactItems();

        assertThat(actions).hasSize(3);
        assertThat(actions.get(PartRequests.CREATE_ORG).conditionCheck().key().get("sk").s())
                .isEqualTo("#METADATA#abc");
        assertThat(actions.get(PartRequests.CREATE_ORG).conditionCheck().conditionExpression())
                .isEqualTo("attribute_exists(pk)");
        assertThat(actions.get(PartRequests.CREATE_RESERVATION).put().item())
                .isEqualTo(new IdReservation(Kind.EMPLOYEE, "e1", "abc").toItem());
        assertThat(actions.get(PartRequests.CREATE_PART).put().item()).isEqualTo(employee.toItem());
        for (int put : List.of(PartRequests.CREATE_RESERVATION, PartRequests.CREATE_PART)) {
            assertThat(actions.get(put).put().tableName()).isEqualTo("t");
            assertThat(actions.get(put).put().conditionExpression()).isEqualTo("attribute_not_exists(pk)");
        }
    }

    @Test
    void reads_ofAPartAReservationAMembershipAnOrganisation_areConsistentReadsOfTheirKey() {
        GetItemRequest team = PartRequests.get("t", Kind.TEAM, "abc", "web");
        GetItemRequest reservation = PartRequests.reservation("t", Kind.TEAM, "web");
        GetItemRequest membership = MembershipRequests.get("t", "abc", "web", "e1");
        GetItemRequest org = OrgRequests.get("t", "abc");

        assertThat(team.key()).isEqualTo(OrgKeys.team("abc", "web").toAttributeMap());
        assertThat(reservation.key()).isEqualTo(OrgKeys.teamRef("web").toAttributeMap());
        assertThat(membership.key()).isEqualTo(OrgKeys.membership("abc", "web", "e1").toAttributeMap());
        assertThat(org.key().get("pk")).isEqualTo(AttributeValue.fromS("ORG#abc"));
        for (GetItemRequest get : List.of(team, reservation, membership, org)) {
            assertThat(get.tableName()).isEqualTo("t");
            assertThat(get.consistentRead()).isTrue();
            assertThat(get.projectionExpression()).isNull();
        }
    }
}
