package io.tally.domains.orgs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.Key;
import io.tally.core.MalformedItemException;
import io.tally.core.TableSchema;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class OrgItemsTest {
    private static final Instant T = Instant.parse("2020-07-05T10:00:00.123Z");

    @Test
    void keys_followSeed002() {
        assertThat(OrgKeys.organisation("abc")).isEqualTo(new Key("ORG#abc", "#METADATA#abc"));
        assertThat(OrgKeys.team("abc", "web")).isEqualTo(new Key("ORG#abc", "#TEAM#web"));
        assertThat(OrgKeys.employee("abc", "e1")).isEqualTo(new Key("ORG#abc", "EMP#e1"));
        assertThat(OrgKeys.membership("abc", "web", "e1")).isEqualTo(new Key("ORG#abc#TEAM#web", "ORG#abc#EMP#e1"));
        assertThat(OrgKeys.orgStats("abc")).isEqualTo(new Key("ORG#abc", "#STATS#"));
        assertThat(OrgKeys.teamStats("web")).isEqualTo(new Key("TEAM#web", "#STATS#"));
        assertThat(OrgKeys.teamRef("web")).isEqualTo(new Key("TEAM#web", "#TEAMREF#"));
        assertThat(OrgKeys.employeeRef("e1")).isEqualTo(new Key("EMPLOYEE#e1", "#EMPLOYEEREF#"));
    }

    @Test
    void items_roundTrip_andOnlyPartsAndMembershipsCarryTheLookupKey() {
        Organisation org = new Organisation("abc", "ABC", null, T, T, 1);
        Team team = new Team("web", "abc", "web_team", "web development team", T, "i1");
        Employee employee = new Employee("e1", "abc", "Maureen", "maureen@test.com", null, T, "i2");
        Membership membership = new Membership("abc", "web", "e1", "lead", T, "i1", "i2");
        IdReservation ref = new IdReservation(IdReservation.Kind.TEAM, "web", "abc");

        assertThat(Organisation.fromItem(org.toItem())).isEqualTo(org);
        assertThat(Team.fromItem(team.toItem())).isEqualTo(team);
        assertThat(Employee.fromItem(employee.toItem())).isEqualTo(employee);
        assertThat(Membership.fromItem(membership.toItem())).isEqualTo(membership);
        assertThat(IdReservation.fromItem(IdReservation.Kind.TEAM, ref.toItem())).isEqualTo(ref);

        assertThat(org.toItem()).doesNotContainKey(OrgKeys.LOOKUP_KEY);
        assertThat(ref.toItem()).doesNotContainKey(OrgKeys.LOOKUP_KEY);
        assertThat(team.toItem().get(OrgKeys.LOOKUP_KEY).s()).isEqualTo(team.toItem().get(TableSchema.SK).s());
        assertThat(employee.toItem().get(OrgKeys.LOOKUP_KEY).s()).isEqualTo("EMP#e1");
        assertThat(membership.toItem().get(OrgKeys.LOOKUP_KEY).s()).isEqualTo("ORG#abc#EMP#e1");
    }

    @Test
    void membership_isOfOneIncarnationOfItsTeamAndEmployee() {
        Team team = new Team("web", "abc", "web_team", null, T, "i1");
        Employee employee = new Employee("e1", "abc", "Maureen", "maureen@test.com", null, T, "i2");
        Membership membership = new Membership("abc", "web", "e1", null, T, "i1", "i2");
        assertThat(membership.joins(team, employee)).isTrue();
        assertThat(membership.joins(new Team("web", "abc", "web_team", null, T, "i3"), employee)).isFalse();
        assertThat(membership.sameAs(new Membership("abc", "web", "e1", "lead", T, "i1", "i2"))).isTrue();
        assertThat(membership.sameAs(new Membership("abc", "web", "e1", null, T, "i3", "i2"))).isFalse();
        assertThat(membership.sameAs(null)).isFalse();
    }

    @Test
    void fromItem_ofAnotherType_isMalformed() {
        assertThatThrownBy(() -> Team.fromItem(new Employee("e1", "abc", "M", "m@x.io", null, T, "i").toItem()))
                .isInstanceOf(MalformedItemException.class);
    }
}
