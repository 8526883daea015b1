package io.tally.core.derive;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.derive.Announcement.Detail;
import org.junit.jupiter.api.Test;

/** The details an announcement's helpers make of each kind of change, checked against the states by hand. */
class AnnouncementTest {
    record Member(String id, String generation) {
    }

    record Seen(String eventId, String id) {
    }

    private static final Member A = new Member("m1", "g1");
    private static final Member A_AGAIN = new Member("m1", "g1");
    private static final Member A_LATER = new Member("m1", "g2");

    private static boolean sameGeneration(Member one, Member other) {
        return one.generation().equals(other.generation());
    }

    @Test
    void created_announcesOnACreateOnly() {
        Detail<Member> created = Announcement.created((eventId, member) -> new Seen(eventId, member.id()));
        assertThat(created.of("e1", null, A)).isEqualTo(new Seen("e1", "m1"));
        assertThat(created.of("e1", A, A_LATER)).isNull();
        assertThat(created.of("e1", A, null)).isNull();
    }

    @Test
    void removed_announcesOnARemovalOnly_ofTheLastState() {
        Detail<Member> removed = Announcement.removed((eventId, member) -> new Seen(eventId, member.generation()));
        assertThat(removed.of("e1", A, null)).isEqualTo(new Seen("e1", "g1"));
        assertThat(removed.of("e1", null, A)).isNull();
        assertThat(removed.of("e1", A, A_LATER)).isNull();
    }

    @Test
    void withSame_aReplacementByAnotherStateIsALeavingAndAnArrival_aSameOneNeither() {
        Detail<Member> joined = Announcement.created(AnnouncementTest::sameGeneration,
                (eventId, member) -> new Seen(eventId, member.generation()));
        Detail<Member> left = Announcement.removed(AnnouncementTest::sameGeneration,
                (eventId, member) -> new Seen(eventId, member.generation()));
        assertThat(joined.of("e1", A, A_LATER)).isEqualTo(new Seen("e1", "g2"));
        assertThat(left.of("e1", A, A_LATER)).isEqualTo(new Seen("e1", "g1"));
        assertThat(joined.of("e1", A, A_AGAIN)).isNull();
        assertThat(left.of("e1", A, A_AGAIN)).isNull();
        assertThat(joined.of("e1", null, A)).isEqualTo(new Seen("e1", "g1"));
        assertThat(left.of("e1", A, null)).isEqualTo(new Seen("e1", "g1"));
        assertThat(joined.of("e1", A, null)).isNull();
        assertThat(left.of("e1", null, A)).isNull();
    }
}
