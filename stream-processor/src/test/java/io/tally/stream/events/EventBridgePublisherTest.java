package io.tally.stream.events;

import io.tally.core.events.DomainEvent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;

/** The request building, without a network. */
class EventBridgePublisherTest {

    @Test
    void entry_eventWithDetail_carriesSourceTypeBusAndDetailWithEventIdFirstInMapOrder() {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("userId", "user-8790");
        detail.put("postId", "dynamodb-101");
        detail.put("status", Map.of("from", "created"));
        detail.put("commentCount", 3);
        detail.put("aliases", List.of("a", "b"));
        detail.put("live", true);
        detail.put("score", null);
        DomainEvent event = new DomainEvent("rec-1:PostStatusChanged:dynamodb-101", "PostStatusChanged", detail);

        PutEventsRequestEntry entry = PutEventsEntries.entry(event, "tally-events", "io.tally");

        assertThat(entry.source()).isEqualTo("io.tally");
        assertThat(entry.detailType()).isEqualTo("PostStatusChanged");
        assertThat(entry.eventBusName()).isEqualTo("tally-events");
        assertThat(entry.time()).isNull();
        assertThat(entry.detail()).isEqualTo("{\"eventId\":\"rec-1:PostStatusChanged:dynamodb-101\","
                + "\"userId\":\"user-8790\",\"postId\":\"dynamodb-101\",\"status\":{\"from\":\"created\"},"
                + "\"commentCount\":3,\"aliases\":[\"a\",\"b\"],\"live\":true,\"score\":null}");
    }

    @Test
    void entry_detailWithItsOwnEventId_keepsTheEventsIdInFront() {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("postId", "p1");
        detail.put("eventId", "something-else");
        DomainEvent event = new DomainEvent("rec-1:PostCreated:p1", "PostCreated", detail);

        PutEventsRequestEntry entry = PutEventsEntries.entry(event, "bus", "io.tally");

        assertThat(entry.detail()).isEqualTo("{\"eventId\":\"rec-1:PostCreated:p1\",\"postId\":\"p1\"}");
    }

    @Test
    void entry_detailNotSerialisable_throwsIllegalArgument() {
        DomainEvent event = new DomainEvent("id", "PostCreated", Map.of("value", new Object()));

        assertThatThrownBy(() -> PutEventsEntries.entry(event, "bus", "io.tally"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("id");
    }

    @Test
    void entrySize_multibyteTextTimeAndResources_countsUtf8BytesAndFourteenForTime() {
        PutEventsRequestEntry entry = PutEventsRequestEntry.builder()
                .source("io.tally")                 // 8
                .detailType("Café")                 // 5: é takes two bytes
                .detail("{\"t\":\"€\"}")            // 11: € takes three bytes
                .resources("arn:a", "arn:bc")       // 5 + 6
                .time(Instant.parse("2024-05-01T10:00:00Z"))
                .build();

        assertThat(PutEventsEntries.entrySize(entry)).isEqualTo(8 + 5 + 11 + 11 + 14);
    }

    @Test
    void entrySize_withoutTimeAndResources_countsSourceTypeAndDetail() {
        PutEventsRequestEntry entry = PutEventsRequestEntry.builder().source("s").detailType("dt").detail("{}").build();

        assertThat(PutEventsEntries.entrySize(entry)).isEqualTo(5);
    }

    @Test
    void calls_25SmallEntries_splitsIntoTenTenFiveInOrder() {
        List<PutEventsRequestEntry> entries = entries(25, 100);

        List<List<Integer>> calls = PutEventsEntries.calls(range(0, 25), entries);

        assertThat(calls).containsExactly(range(0, 10), range(10, 20), range(20, 25));
    }

    @Test
    void calls_entriesTogetherAboveTheLimit_splitsBySize() {
        // Each entry is 100 KiB: two fit within 256 KiB, a third would not.
        List<PutEventsRequestEntry> entries = entries(5, 100 * 1024);

        List<List<Integer>> calls = PutEventsEntries.calls(range(0, 5), entries);

        assertThat(calls).containsExactly(List.of(0, 1), List.of(2, 3), List.of(4));
    }

    @Test
    void calls_entriesSummingToExactlyTheLimit_fitOneCall() {
        List<PutEventsRequestEntry> entries = entries(2, EventBridgePublisher.MAX_CALL_BYTES / 2);

        assertThat(PutEventsEntries.calls(range(0, 2), entries)).containsExactly(List.of(0, 1));
    }

    @Test
    void calls_someOfThePositions_keepsThemInTheirOrder() {
        List<PutEventsRequestEntry> entries = entries(30, 100);
        List<Integer> positions = List.of(1, 4, 5, 9, 12, 13, 17, 20, 21, 25, 28, 29);

        List<List<Integer>> calls = PutEventsEntries.calls(positions, entries);

        assertThat(calls).containsExactly(positions.subList(0, 10), positions.subList(10, 12));
    }

    @Test
    void calls_noPositions_makesNoCall() {
        assertThat(PutEventsEntries.calls(List.of(), List.of())).isEmpty();
    }

    /** Entries of exactly {@code size} bytes as EventBridge counts them. */
    private static List<PutEventsRequestEntry> entries(int count, int size) {
        return IntStream.range(0, count).mapToObj(i -> PutEventsRequestEntry.builder()
                .source("s").detailType("t").detail("x".repeat(size - 2)).build()).toList();
    }

    private static List<Integer> range(int from, int to) {
        return IntStream.range(from, to).boxed().toList();
    }
}
