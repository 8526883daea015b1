package io.tally.local.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** PutEvents on request bodies, without a network: validation, answers and envelopes. */
class PutEventsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2024-05-01T10:15:30.999Z");

    private final AtomicLong nextId = new AtomicLong();
    private final PutEvents putEvents = new PutEvents("tally", Clock.fixed(NOW, ZoneOffset.UTC),
            () -> new UUID(0, nextId.incrementAndGet()));

    private static ObjectNode entry(String detailType, String detail) {
        ObjectNode entry = JSON.createObjectNode();
        entry.put("Source", "io.tally");
        entry.put("DetailType", detailType);
        entry.put("Detail", detail);
        return entry;
    }

    private PutEvents.Result execute(ObjectNode... entries) {
        ObjectNode request = JSON.createObjectNode();
        ArrayNode list = request.putArray("Entries");
        for (ObjectNode entry : entries) {
            list.add(entry);
        }
        return execute(request.toString());
    }

    private PutEvents.Result execute(String body) {
        return putEvents.execute(body.getBytes(StandardCharsets.UTF_8));
    }

    private static PutEvents.Accepted accepted(PutEvents.Result result) {
        assertThat(result).isInstanceOf(PutEvents.Accepted.class);
        return (PutEvents.Accepted) result;
    }

    private static PutEvents.Rejected rejected(PutEvents.Result result) {
        assertThat(result).isInstanceOf(PutEvents.Rejected.class);
        return (PutEvents.Rejected) result;
    }

    @Test
    void validEntry_answersItsEventIdAndBuildsTheEnvelopeWithThatId() throws Exception {
        PutEvents.Accepted result = accepted(execute(entry("PostCreated", "{\"eventId\":\"e1\"}")));

        String id = new UUID(0, 1).toString();
        assertThat(result.body()).isEqualTo(JSON.readTree(
                "{\"FailedEntryCount\":0,\"Entries\":[{\"EventId\":\"" + id + "\"}]}"));
        assertThat(result.events()).containsExactly((ObjectNode) JSON.readTree("{\"version\":\"0\",\"id\":\"" + id
                + "\",\"detail-type\":\"PostCreated\",\"source\":\"io.tally\",\"account\":\"000000000000\","
                + "\"time\":\"2024-05-01T10:15:30Z\",\"region\":\"us-east-1\",\"resources\":[],"
                + "\"detail\":{\"eventId\":\"e1\"}}"));
    }

    @Test
    void failedEntries_areAnsweredInPlaceWithoutAnEvent() throws Exception {
        ObjectNode noSource = entry("PostCreated", "{}");
        noSource.remove("Source");

        PutEvents.Accepted result = accepted(execute(entry("A", "{}"), noSource, entry("B", "{\"x\":")));

        assertThat(result.body()).isEqualTo(JSON.readTree("{\"FailedEntryCount\":2,\"Entries\":["
                + "{\"EventId\":\"" + new UUID(0, 1) + "\"},"
                + "{\"ErrorCode\":\"InvalidArgument\",\"ErrorMessage\":"
                + "\"Parameter Source is not valid. Reason: Source is a required argument.\"},"
                + "{\"ErrorCode\":\"MalformedDetail\",\"ErrorMessage\":\"Detail is malformed.\"}]}"));
        assertThat(result.events()).hasSize(1);
    }

    @Test
    void emptyStrings_countAsMissing() {
        PutEvents.Accepted result = accepted(execute(entry("", "{}"), entry("A", "")));

        assertThat(result.entries()).extracting(PutEvents.EntryResult::errorMessage).containsExactly(
                "Parameter DetailType is not valid. Reason: DetailType is a required argument.",
                "Parameter Detail is not valid. Reason: Detail is a required argument.");
    }

    @Test
    void detailThatIsJsonButNoObject_isMalformed() {
        for (String detail : List.of("[]", "\"text\"", "42", "null", "{} {}")) {
            PutEvents.Accepted result = accepted(execute(entry("A", detail)));

            assertThat(result.entries().get(0).errorCode()).as(detail).isEqualTo("MalformedDetail");
        }
    }

    @Test
    void time_inEpochSecondsWithFraction_isTheEventTimeInWholeSeconds() {
        ObjectNode entry = entry("A", "{}");
        entry.put("Time", new BigDecimal("1714558530.75"));

        PutEvents.Accepted result = accepted(execute(entry));

        assertThat(result.events().get(0).get("time").asText()).isEqualTo("2024-05-01T10:15:30Z");
    }

    @Test
    void time_asIsoString_isReadToo() {
        ObjectNode entry = entry("A", "{}");
        entry.put("Time", "2020-01-02T03:04:05Z");

        assertThat(accepted(execute(entry)).events().get(0).get("time").asText()).isEqualTo("2020-01-02T03:04:05Z");
    }

    @Test
    void entrySize_countsAsEventBridgeDocumentsIt() {
        PutEvents.Entry entry = new PutEvents.Entry("src", "type", "{\"é\":1}", "tally", List.of("r1", "r22"),
                Instant.EPOCH);

        // Time 14, Source 3, DetailType 4, Detail 8 bytes in UTF-8 (é takes two), Resources 2 + 3; the bus name does not count.
        assertThat(PutEvents.entrySize(entry)).isEqualTo(14 + 3 + 4 + 8 + 5);
    }

    @Test
    void noEntries_isAValidationError() {
        assertThat(rejected(execute("{\"Entries\":[]}")).type()).isEqualTo("ValidationException");
        assertThat(rejected(execute("{}")).message()).contains("Member must not be null");
        assertThat(rejected(execute("")).type()).isEqualTo("ValidationException");
    }

    @Test
    void elevenEntries_isAValidationErrorAndNothingIsAccepted() {
        ObjectNode[] eleven = new ObjectNode[11];
        Arrays.fill(eleven, entry("A", "{}"));

        PutEvents.Rejected result = rejected(execute(eleven));

        assertThat(result.type()).isEqualTo("ValidationException");
        assertThat(result.message()).isEqualTo("1 validation error detected: Value '[PutEventsRequestEntry]' at "
                + "'entries' failed to satisfy constraint: Member must have length less than or equal to 10");
        assertThat(result.body()).isEqualTo(PutEvents.errorBody("ValidationException", result.message()));
        assertThat(nextId).hasValue(0);
    }

    @Test
    void entriesTogetherOverTheLimit_failTheCallEvenIfEachIsUnder() {
        String half = "{\"p\":\"" + "x".repeat(PutEvents.MAX_ENTRIES_BYTES / 2) + "\"}";

        PutEvents.Rejected result = rejected(execute(entry("A", half), entry("B", half)));

        assertThat(result.type()).isEqualTo("ValidationException");
        assertThat(result.message()).isEqualTo("Total size of the entries in the request is over the limit.");
    }

    @Test
    void bodyThatIsNotTheOperationsJson_isASerializationError() {
        for (String body : List.of("not json", "[1]", "{\"Entries\":{}}", "{\"Entries\":[1]}",
                "{\"Entries\":[{\"Source\":5}]}", "{\"Entries\":[{\"Resources\":\"r\"}]}",
                "{\"Entries\":[{\"Time\":true}]}", "{\"Entries\":[{\"Time\":\"yesterday\"}]}")) {
            assertThat(rejected(execute(body)).type()).as(body).isEqualTo("SerializationException");
        }
    }

    @Test
    void eventBusName_acceptsTheBusDefaultAndTheirArnsOnly() {
        List<String> names = List.of("tally", "default", "arn:aws:events:us-east-1:000000000000:event-bus/tally",
                "arn:aws:events:eu-west-1:123456789012:event-bus/default", "Tally", "orders",
                "arn:aws:events:us-east-1:000000000000:event-bus/orders");
        ObjectNode[] entries = names.stream().map(name -> {
            ObjectNode entry = entry("A", "{}");
            entry.put("EventBusName", name);
            return entry;
        }).toArray(ObjectNode[]::new);

        PutEvents.Accepted result = accepted(execute(entries));

        assertThat(result.entries()).extracting(PutEvents.EntryResult::errorCode)
                .containsExactly(null, null, null, null, "InvalidArgument", "InvalidArgument", "InvalidArgument");
    }
}
