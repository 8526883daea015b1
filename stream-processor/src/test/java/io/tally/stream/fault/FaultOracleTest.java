package io.tally.stream.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.ShardSettings;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.events.DomainEvent;
import io.tally.stream.engine.SourceRecord;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The fault oracle's checks of events can fail: an event published more often than its record was held, one no record
 * announces, one whose detail is not the documented one.
 */
class FaultOracleTest {
    private final FaultOracle oracle = new FaultOracle(null, "unused",
            DomainRegistry.load().derivations(ShardSettings.DEFAULTS), "test");

    /** A song added: one record, one event ({@code SongAdded}). */
    private final SourceRecord record = new SourceRecord("r1", "INSERT", "shard-1", "100", Instant.EPOCH,
            Map.of("pk", s("SONG#s1"), "sk", s("#METADATA#")), null,
            Map.of("pk", s("SONG#s1"), "sk", s("#METADATA#"), "entityType", s("Song"), "songId", s("s1"),
                    "title", s("Song"), "updatedAt", s("2026-01-01T00:00:00.000Z")));

    @Test
    void anEventPublishedOncePerDeliveryOfItsRecord_isWithinTheBound() {
        String event = onlyEvent();
        assertThat(oracle.excessPublications(List.of(record), List.of(event, event), Map.of("r1", 2))).isEmpty();
    }

    @Test
    void anEventPublishedMoreOftenThanItsRecordWasDelivered_isReported() {
        String event = onlyEvent();
        assertThat(oracle.excessPublications(List.of(record), List.of(event, event), Map.of("r1", 1)))
                .containsExactly(event + " published 2 times, its record delivered 1 times");
    }

    @Test
    void anEventNoRecordAnnounces_isReported() {
        assertThat(oracle.excessPublications(List.of(record), List.of("r2:SongAdded:s2"), Map.of("r1", 1)))
                .containsExactly("r2:SongAdded:s2 published 1 times, its record delivered 0 times");
    }

    @Test
    void anEventWithItsDocumentedDetail_passes() {
        String event = onlyEvent();
        assertThat(oracle.differingDetails(List.of(record), List.of(new DomainEvent(event, "SongAdded",
                detail(event, "Song"))))).isEmpty();
    }

    @Test
    void anEventWithAnotherDetailThanTheDocumentedOne_isReported() {
        String event = onlyEvent();
        assertThat(oracle.differingDetails(List.of(record), List.of(new DomainEvent(event, "SongAdded",
                detail(event, "Another title")))))
                .containsExactly(event + ": published SongAdded {\"eventId\":\"r1:SongAdded:s1\",\"songId\":\"s1\","
                        + "\"title\":\"Another title\",\"artist\":null}, documented SongAdded {\"eventId\":"
                        + "\"r1:SongAdded:s1\",\"songId\":\"s1\",\"title\":\"Song\",\"artist\":null}");
    }

    /** The detail of {@code SongAdded} as docs/events.md lists its fields. */
    private static Map<String, Object> detail(String eventId, String title) {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("eventId", eventId);
        detail.put("songId", "s1");
        detail.put("title", title);
        detail.put("artist", null);
        return detail;
    }

    private String onlyEvent() {
        List<String> events = oracle.expectedEventIds(List.of(record));
        assertThat(events).hasSize(1);
        return events.get(0);
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }
}
