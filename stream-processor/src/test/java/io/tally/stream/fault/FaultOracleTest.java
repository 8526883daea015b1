package io.tally.stream.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.ShardSettings;
import io.tally.core.domain.DomainRegistry;
import io.tally.stream.engine.SourceRecord;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The fault oracle's bound on duplicate events can fail: an event published more often than its record was held. */
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

    private String onlyEvent() {
        List<String> events = oracle.expectedEventIds(List.of(record));
        assertThat(events).hasSize(1);
        return events.get(0);
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }
}
