package io.tally.core.users;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.Key;
import io.tally.core.SharedCounter;
import io.tally.core.derive.CounterRef;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.events.DomainEvent;
import io.tally.domains.blog.Blog;
import io.tally.domains.blog.BlogKeys;
import io.tally.domains.catalogue.Catalogue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UserStatsEventsTest {
    /** The kernel's announcer over the seed domains, in their order: posts, comments, completed, ... */
    private static final UserStatsEvents EVENTS = new UserStatsEvents(
            DomainRegistry.load().counters(Users.USER_STATS));
    private static final String RECORD = "record-1";

    @Test
    void changed_countersOfTwoUsers_oneEventPerUserOrderedByUserId() {
        Map<CounterRef, Long> deltas = new LinkedHashMap<>();
        deltas.put(stats("u2", Blog.USER_COMMENTS), 1L);
        deltas.put(stats("u1", Blog.USER_POSTS), -1L);

        List<DomainEvent> events = EVENTS.announce(RECORD, deltas);

        assertThat(events).extracting(DomainEvent::id)
                .containsExactly("record-1:UserStatsChanged:u1", "record-1:UserStatsChanged:u2");
        assertThat(events).extracting(DomainEvent::detailType).containsOnly(UserStatsEvents.USER_STATS_CHANGED);
        assertThat(events.get(0).detail()).containsExactly(
                Map.entry("eventId", "record-1:UserStatsChanged:u1"),
                Map.entry("userId", "u1"),
                Map.entry("changes", Map.of(Blog.USER_POSTS.attribute(), -1L)));
        assertThat(events.get(1).detail()).containsEntry("changes", Map.of(Blog.USER_COMMENTS.attribute(), 1L));
    }

    @Test
    void changed_countersInAnyOrder_changesFollowTheStatsOrder() {
        Map<CounterRef, Long> deltas = new LinkedHashMap<>();
        List<SharedCounter> reversed = new ArrayList<>(DomainRegistry.load().sharedCounters(Users.USER_STATS));
        Collections.reverse(reversed);
        for (SharedCounter counter : reversed) {
            deltas.put(stats("u1", counter), 1L);
        }

        List<DomainEvent> events = EVENTS.announce(RECORD, deltas);

        assertThat(events).hasSize(1);
        @SuppressWarnings("unchecked")
        Map<String, Object> changes = (Map<String, Object>) events.get(0).detail().get("changes");
        assertThat(changes.keySet()).containsExactly("posts", "comments", "completed", "correctGuesses",
                "liveCompleted", "assigned", "inProgress", "orphaned");
        assertThat(events.get(0).detail().keySet()).containsExactly("eventId", "userId", "changes");
    }

    @Test
    void changed_onlyCountersOfOtherDerivedItems_noEvents() {
        Map<CounterRef, Long> deltas = Map.of(
                new CounterRef(BlogKeys.postProjection("p1"), Blog.POST_PROJECTION, Blog.Projection.COMMENTS), 1L,
                new CounterRef(Users.globalStatsKey(2), Users.GLOBAL_STATS, Blog.GLOBAL_COMMENTS.attribute()), 1L);

        assertThat(EVENTS.announce(RECORD, deltas)).isEmpty();
    }

    @Test
    void changed_zeroDeltas_leftOutAndNoEventForAUserWithoutChanges() {
        Map<CounterRef, Long> deltas = new LinkedHashMap<>();
        deltas.put(stats("u1", Blog.USER_POSTS), 0L);
        deltas.put(stats("u2", Blog.USER_POSTS), 0L);
        deltas.put(stats("u2", Blog.USER_COMMENTS), 2L);

        List<DomainEvent> events = EVENTS.announce(RECORD, deltas);

        assertThat(events).singleElement().satisfies(event -> {
            assertThat(event.detail()).containsEntry("userId", "u2");
            assertThat(event.detail()).containsEntry("changes", Map.of(Blog.USER_COMMENTS.attribute(), 2L));
        });
    }

    @Test
    void changed_noDeltas_noEvents() {
        assertThat(EVENTS.announce(RECORD, Map.of())).isEmpty();
    }

    @Test
    void changed_sameRecordTwice_sameEvents() {
        Map<CounterRef, Long> deltas = Map.of(stats("u1", Catalogue.USER_COMPLETED), 1L, stats("u1", Catalogue.USER_IN_PROGRESS), -1L);

        assertThat(EVENTS.announce(RECORD, deltas)).isEqualTo(EVENTS.announce(RECORD, deltas));
    }

    @Test
    void changed_userStatsCounterOnAnotherKey_isRejectedAsABug() {
        Map<CounterRef, Long> deltas = Map.of(
                new CounterRef(new Key("USER#u1", "#METADATA#u1"), Users.USER_STATS, Blog.USER_POSTS.attribute()), 1L);

        assertThatThrownBy(() -> EVENTS.announce(RECORD, deltas))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not the key of a user's stats item");
    }

    private static CounterRef stats(String userId, SharedCounter counter) {
        return SharedStats.user(userId, counter);
    }
}
