package io.tally.stream.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.Key;
import io.tally.core.blog.Blog;
import io.tally.core.blog.BlogKeys;
import io.tally.core.catalogue.Catalogue;
import io.tally.core.domains.Domains;
import io.tally.core.derive.CounterRef;
import io.tally.core.events.DomainEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UserStatsEventsTest {
    private static final String RECORD = "record-1";

    @Test
    void changed_countersOfTwoUsers_oneEventPerUserOrderedByUserId() {
        Map<CounterRef, Long> deltas = new LinkedHashMap<>();
        deltas.put(stats("u2", Blog.USER_COMMENTS), 1L);
        deltas.put(stats("u1", Blog.USER_POSTS), -1L);

        List<DomainEvent> events = UserStatsEvents.changed(RECORD, deltas);

        assertThat(events).extracting(DomainEvent::id)
                .containsExactly("record-1:UserStatsChanged:u1", "record-1:UserStatsChanged:u2");
        assertThat(events).extracting(DomainEvent::detailType).containsOnly(UserStatsEvents.USER_STATS_CHANGED);
        assertThat(events.get(0).detail()).containsExactly(
                Map.entry("eventId", "record-1:UserStatsChanged:u1"),
                Map.entry("userId", "u1"),
                Map.entry("changes", Map.of(Blog.USER_POSTS, -1L)));
        assertThat(events.get(1).detail()).containsEntry("changes", Map.of(Blog.USER_COMMENTS, 1L));
    }

    @Test
    void changed_countersInAnyOrder_changesFollowTheStatsOrder() {
        Map<CounterRef, Long> deltas = new LinkedHashMap<>();
        List<String> reversed = new ArrayList<>(Domains.USER_STATS.counters());
        Collections.reverse(reversed);
        for (String counter : reversed) {
            deltas.put(stats("u1", counter), 1L);
        }

        List<DomainEvent> events = UserStatsEvents.changed(RECORD, deltas);

        assertThat(events).hasSize(1);
        @SuppressWarnings("unchecked")
        Map<String, Object> changes = (Map<String, Object>) events.get(0).detail().get("changes");
        assertThat(changes.keySet()).containsExactlyElementsOf(Domains.USER_STATS.counters());
        assertThat(events.get(0).detail().keySet()).containsExactly("eventId", "userId", "changes");
    }

    @Test
    void changed_onlyCountersOfOtherDerivedItems_noEvents() {
        Map<CounterRef, Long> deltas = Map.of(
                new CounterRef(BlogKeys.postProjection("p1"), Blog.POST_PROJECTION, Blog.Projection.COMMENTS), 1L,
                new CounterRef(Domains.globalStatsKey(2), Domains.GLOBAL_STATS, Blog.GLOBAL_COMMENTS), 1L);

        assertThat(UserStatsEvents.changed(RECORD, deltas)).isEmpty();
    }

    @Test
    void changed_zeroDeltas_leftOutAndNoEventForAUserWithoutChanges() {
        Map<CounterRef, Long> deltas = new LinkedHashMap<>();
        deltas.put(stats("u1", Blog.USER_POSTS), 0L);
        deltas.put(stats("u2", Blog.USER_POSTS), 0L);
        deltas.put(stats("u2", Blog.USER_COMMENTS), 2L);

        List<DomainEvent> events = UserStatsEvents.changed(RECORD, deltas);

        assertThat(events).singleElement().satisfies(event -> {
            assertThat(event.detail()).containsEntry("userId", "u2");
            assertThat(event.detail()).containsEntry("changes", Map.of(Blog.USER_COMMENTS, 2L));
        });
    }

    @Test
    void changed_noDeltas_noEvents() {
        assertThat(UserStatsEvents.changed(RECORD, Map.of())).isEmpty();
    }

    @Test
    void changed_sameRecordTwice_sameEvents() {
        Map<CounterRef, Long> deltas = Map.of(stats("u1", Catalogue.USER_COMPLETED), 1L, stats("u1", Catalogue.USER_IN_PROGRESS), -1L);

        assertThat(UserStatsEvents.changed(RECORD, deltas)).isEqualTo(UserStatsEvents.changed(RECORD, deltas));
    }

    @Test
    void changed_userStatsCounterOnAnotherKey_isRejectedAsABug() {
        Map<CounterRef, Long> deltas = Map.of(
                new CounterRef(new Key("USER#u1", "#METADATA#u1"), Domains.USER_STATS, Blog.USER_POSTS), 1L);

        assertThatThrownBy(() -> UserStatsEvents.changed(RECORD, deltas))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not the key of a user's stats item");
    }

    private static CounterRef stats(String userId, String counter) {
        return new CounterRef(BlogKeys.userStats(userId), Domains.USER_STATS, counter);
    }
}
