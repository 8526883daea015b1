package io.tally.domains.orgs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

class MembershipCascadeRequestsTest {
    @Test
    void delete_isConditionalOnTheRemovedIncarnation() {
        DeleteItemRequest request = MembershipCascadeRequests.delete("t", OrgKeys.membership("o", "web", "e1"),
                Membership.TEAM_INCARNATION, "i1");
        assertThat(request).isEqualTo(DeleteItemRequest.builder()
                .tableName("t")
                .key(Map.of("pk", AttributeValue.fromS("ORG#o#TEAM#web"), "sk", AttributeValue.fromS("ORG#o#EMP#e1")))
                .conditionExpression("#incarnation = :incarnation")
                .expressionAttributeNames(Map.of("#incarnation", "teamIncarnation"))
                .expressionAttributeValues(Map.of(":incarnation", AttributeValue.fromS("i1")))
                .build());
    }

    @Test
    void reads_areConsistent_theTeamsPartitionAndTheOrganisationsTeams() {
        QueryRequest team = MembershipCascadeRequests.teamMemberships("t", new TeamMemberships("o", "web", "i1"), null);
        assertThat(team.consistentRead()).isTrue();
        assertThat(team.expressionAttributeValues()).containsEntry(":pk", AttributeValue.fromS("ORG#o#TEAM#web"));
        QueryRequest teams = MembershipCascadeRequests.orgTeams("t", new EmployeeMemberships("o", "e1", "i2"), null);
        assertThat(teams.consistentRead()).isTrue();
        assertThat(teams.indexName()).isNull();
        assertThat(teams.expressionAttributeValues()).containsEntry(":prefix", AttributeValue.fromS("#TEAM#"));
        KeysAndAttributes keys = MembershipCascadeRequests.employeeMemberships("t",
                new EmployeeMemberships("o", "e1", "i2"), List.of("web", "ops")).requestItems().get("t");
        assertThat(keys.consistentRead()).isTrue();
        assertThat(keys.keys()).containsExactly(OrgKeys.membership("o", "web", "e1").toAttributeMap(),
                OrgKeys.membership("o", "ops", "e1").toAttributeMap());
    }
}
