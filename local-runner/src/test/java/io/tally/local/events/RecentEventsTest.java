package io.tally.local.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ring of recent events behind GET /events. */
class RecentEventsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static MatchedEvent event(int n) {
        ObjectNode envelope = JSON.createObjectNode();
        envelope.put("id", "e" + n);
        return new MatchedEvent(n % 2 == 0 ? List.of("even") : List.of(), envelope);
    }

    @Test
    void newest_returnsNewestFirstUpToTheLimit() {
        RecentEvents recent = new RecentEvents(10);
        for (int i = 1; i <= 4; i++) {
            recent.deliver(event(i));
        }

        assertThat(recent.newest(3)).extracting(MatchedEvent::id).containsExactly("e4", "e3", "e2");
        assertThat(recent.newest(100)).extracting(MatchedEvent::id).containsExactly("e4", "e3", "e2", "e1");
    }

    @Test
    void full_dropsTheOldestAndKeepsUnmatchedEventsToo() {
        RecentEvents recent = new RecentEvents(3);
        for (int i = 1; i <= 5; i++) {
            recent.deliver(event(i));
        }

        assertThat(recent.newest(10)).extracting(MatchedEvent::id).containsExactly("e5", "e4", "e3");
        assertThat(recent.newest(10)).extracting(MatchedEvent::rules)
                .containsExactly(List.of(), List.of("even"), List.of());
    }

    @Test
    void empty_returnsNothing() {
        assertThat(new RecentEvents(1).newest(50)).isEmpty();
    }
}
