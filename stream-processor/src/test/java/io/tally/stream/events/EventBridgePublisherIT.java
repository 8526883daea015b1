package io.tally.stream.events;

import io.tally.core.events.DomainEvent;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tally.stream.events.FakeEventBridge.Request;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;

/** The publisher through the real SDK client against {@link FakeEventBridge}. */
class EventBridgePublisherIT {
    private static final String BUS = "tally-events";
    private static final String SOURCE = "io.tally";

    private FakeEventBridge eventBridge;
    private EventBridgeClient client;
    private EventBridgePublisher publisher;

    @BeforeEach
    void start() throws Exception {
        eventBridge = FakeEventBridge.start();
        client = EventBridgeClient.builder()
                .endpointOverride(eventBridge.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create("AKIDTALLYTEST1", "tally-test-secret")))
                .httpClient(UrlConnectionHttpClient.create())
                // The SDK would otherwise retry throttled and 5xx calls itself; without, every request the fake
                // records is one the publisher decided to make.
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build();
        // One call at a time: these tests name the call the fake fails ("the next call") and the order of calls.
        // EventBridgePublisherConcurrencyTest and the tests at the end, with calls in flight together.
        publisher = new EventBridgePublisher(client, BUS, SOURCE, 1, 5, Duration.ofMillis(1), Duration.ofMillis(4));
    }

    @AfterEach
    void stop() {
        client.close();
        eventBridge.close();
    }

    @Test
    void publish_25Events_sendsThreeCallsOfAtMostTenEntriesInOrder() {
        List<DomainEvent> events = events(25);

        List<DomainEvent> failed = publisher.publish(events);

        assertThat(failed).isEmpty();
        List<Request> requests = eventBridge.requests();
        assertThat(requests).extracting(request -> request.entries().size()).containsExactly(10, 10, 5);
        assertThat(requests).allSatisfy(request -> {
            assertThat(request.target()).isEqualTo(FakeEventBridge.PUT_EVENTS_TARGET);
            assertThat(request.contentType()).startsWith("application/x-amz-json-1.1");
        });
        List<JsonNode> entries = requests.stream().flatMap(request -> request.entries().stream()).toList();
        assertThat(entries).hasSize(25);
        for (int i = 0; i < 25; i++) {
            JsonNode entry = entries.get(i);
            assertThat(entry.path("Source").asText()).isEqualTo(SOURCE);
            assertThat(entry.path("DetailType").asText()).isEqualTo("PostCreated");
            assertThat(entry.path("EventBusName").asText()).isEqualTo(BUS);
            assertThat(entry.path("Detail").asText()).isEqualTo("{\"eventId\":\"" + events.get(i).id()
                    + "\",\"userId\":\"user-8790\",\"postId\":\"post-" + i + "\",\"title\":\"Post " + i
                    + "\",\"tags\":[\"dynamodb\",\"streams\"],\"version\":1}");
        }
        assertThat(eventBridge.accepted()).containsExactlyElementsOf(ids(events));
    }

    @Test
    void publish_entriesRejectedOnFirstAttempt_resendsOnlyThoseEntriesInOneCall() {
        List<DomainEvent> events = events(25);
        for (int position : List.of(3, 7, 22)) {
            eventBridge.rejectEntry(events.get(position).id(), "ThrottlingException", 1);
        }

        List<DomainEvent> failed = publisher.publish(events);

        assertThat(failed).isEmpty();
        List<Request> requests = eventBridge.requests();
        assertThat(requests).hasSize(4);
        assertThat(requests.get(3).eventIds()).containsExactly(
                events.get(3).id(), events.get(7).id(), events.get(22).id());
        assertThat(eventBridge.accepted()).containsExactlyInAnyOrderElementsOf(ids(events));
    }

    @Test
    void publish_eventLargerThan256Kb_returnsItFailedWithoutSendingIt() {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("postId", "post-huge");
        detail.put("body", "x".repeat(256 * 1024));
        DomainEvent huge = new DomainEvent(DomainEvent.idFor("record-huge", "PostCreated", "post-huge"),
                "PostCreated", detail);
        List<DomainEvent> events = List.of(event(0), huge, event(2));

        List<DomainEvent> failed = publisher.publish(events);

        assertThat(failed).containsExactly(huge);
        assertThat(eventBridge.requests()).hasSize(1);
        assertThat(eventBridge.requests().get(0).eventIds()).containsExactly(events.get(0).id(), events.get(2).id());
    }

    @Test
    void publish_eventsTogetherAbove256Kb_splitsCallsBySize() {
        List<DomainEvent> events = IntStream.range(0, 5).mapToObj(i -> {
            Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("postId", "post-" + i);
            detail.put("body", "x".repeat(100 * 1024));
            return new DomainEvent(DomainEvent.idFor("record-" + i, "PostCreated", "post-" + i), "PostCreated",
                    detail);
        }).toList();

        List<DomainEvent> failed = publisher.publish(events);

        assertThat(failed).isEmpty();
        assertThat(eventBridge.requests()).extracting(request -> request.entries().size()).containsExactly(2, 2, 1);
        assertThat(eventBridge.accepted()).containsExactlyElementsOf(ids(events));
    }

    @Test
    void publish_entriesRejectedOnEveryAttempt_returnsThemFailedInOrderAfterFiveAttempts() {
        List<DomainEvent> events = events(4);
        eventBridge.rejectEntry(events.get(3).id(), "InternalFailure", Integer.MAX_VALUE);
        eventBridge.rejectEntry(events.get(1).id(), "ThrottlingException", Integer.MAX_VALUE);

        List<DomainEvent> failed = publisher.publish(events);

        assertThat(failed).containsExactly(events.get(1), events.get(3));
        List<Request> requests = eventBridge.requests();
        assertThat(requests).hasSize(5);
        assertThat(requests.subList(1, 5)).allSatisfy(request ->
                assertThat(request.eventIds()).containsExactly(events.get(1).id(), events.get(3).id()));
        assertThat(eventBridge.accepted()).containsExactly(events.get(0).id(), events.get(2).id());
    }

    @Test
    void publish_entryRejectedAsMalformed_returnsItFailedWithoutRetrying() {
        List<DomainEvent> events = events(3);
        eventBridge.rejectEntry(events.get(1).id(), "MalformedDetail", Integer.MAX_VALUE);

        List<DomainEvent> failed = publisher.publish(events);

        assertThat(failed).containsExactly(events.get(1));
        assertThat(eventBridge.requests()).hasSize(1);
    }

    @Test
    void publish_callThrottled_retriesThatCallOnly() {
        List<DomainEvent> events = events(12);
        eventBridge.failNextCall(400, "ThrottlingException");

        List<DomainEvent> failed = publisher.publish(events);

        assertThat(failed).isEmpty();
        List<Request> requests = eventBridge.requests();
        assertThat(requests).extracting(Request::eventIds).containsExactly(
                ids(events.subList(0, 10)), ids(events.subList(10, 12)), ids(events.subList(0, 10)));
        assertThat(eventBridge.accepted()).containsExactlyInAnyOrderElementsOf(ids(events));
    }

    @Test
    void publish_callFailsWithServerError_retriesThatCall() {
        List<DomainEvent> events = events(3);
        eventBridge.failNextCall(500, "InternalException");
        eventBridge.failNextCall(503, "ServiceUnavailable");

        List<DomainEvent> failed = publisher.publish(events);

        assertThat(failed).isEmpty();
        assertThat(eventBridge.requests()).hasSize(3);
        assertThat(eventBridge.accepted()).containsExactlyElementsOf(ids(events));
    }

    @Test
    void publish_callThrottledOnEveryAttempt_returnsItsEventsFailedAfterFiveAttempts() {
        List<DomainEvent> events = events(3);
        for (int i = 0; i < 5; i++) {
            eventBridge.failNextCall(400, "ThrottlingException");
        }

        List<DomainEvent> failed = publisher.publish(events);

        assertThat(failed).containsExactlyElementsOf(events);
        assertThat(eventBridge.requests()).hasSize(5);
        assertThat(eventBridge.accepted()).isEmpty();
    }

    @Test
    void publish_callRejectedAsInvalid_returnsItsEventsFailedWithoutRetrying() {
        List<DomainEvent> events = events(12);
        eventBridge.failNextCall(400, "ValidationException");

        List<DomainEvent> failed = publisher.publish(events);

        assertThat(failed).containsExactlyElementsOf(events.subList(0, 10));
        assertThat(eventBridge.requests()).hasSize(2);
        assertThat(eventBridge.accepted()).containsExactlyElementsOf(ids(events.subList(10, 12)));
    }

    @Test
    void publish_detailNotSerialisable_returnsItFailedAndPublishesTheOthers() {
        DomainEvent broken = new DomainEvent("record-x:PostCreated:post-x", "PostCreated",
                Map.of("value", new Object()));
        List<DomainEvent> events = List.of(event(0), broken, event(2));

        List<DomainEvent> failed = publisher.publish(events);

        assertThat(failed).containsExactly(broken);
        assertThat(eventBridge.accepted()).containsExactly(events.get(0).id(), events.get(2).id());
    }

    @Test
    void tryPublish_entryRefusedForGood_saysSoWithItsCode_andRetryableOnesAfterTheirAttempts() {
        List<DomainEvent> events = events(4);
        eventBridge.rejectEntry(events.get(0).id(), "AccessDeniedException", Integer.MAX_VALUE);
        eventBridge.rejectEntry(events.get(1).id(), "ThrottlingException", Integer.MAX_VALUE);
        eventBridge.rejectEntry(events.get(2).id(), "InternalFailure", Integer.MAX_VALUE);
        // A code EventBridge may add one day: not known to pass on a retry, so not retried.
        eventBridge.rejectEntry(events.get(3).id(), "SomeNewRefusal", Integer.MAX_VALUE);

        List<Unpublished> failed = publisher.tryPublish(events);

        assertThat(failed).extracting(Unpublished::event).containsExactlyElementsOf(events);
        assertThat(failed).extracting(Unpublished::errorCode)
                .containsExactly("AccessDeniedException", "ThrottlingException", "InternalFailure", "SomeNewRefusal");
        assertThat(failed).extracting(Unpublished::retryable).containsExactly(false, true, true, false);
        assertThat(failed).extracting(Unpublished::source).containsOnly(SOURCE);
        // The refused ones went out once, the retryable ones on each of the five attempts.
        assertThat(eventBridge.requests()).hasSize(5);
        assertThat(eventBridge.requests().get(1).eventIds()).containsExactly(events.get(1).id(), events.get(2).id());
    }

    @Test
    void tryPublish_callRefusedAsTheBusIsGone_refusesItsEventsForGoodWithoutRetrying() {
        List<DomainEvent> events = events(3);
        eventBridge.failNextCall(400, "ResourceNotFoundException");

        List<Unpublished> failed = publisher.tryPublish(events);

        assertThat(failed).extracting(Unpublished::event).containsExactlyElementsOf(events);
        assertThat(failed).extracting(Unpublished::errorCode).containsOnly("ResourceNotFoundException");
        assertThat(failed).noneMatch(Unpublished::retryable);
        assertThat(eventBridge.requests()).hasSize(1);
    }

    @Test
    void tryPublish_callDeniedAccess_refusesItsEventsForGood() {
        List<DomainEvent> events = events(2);
        eventBridge.failNextCall(400, "AccessDeniedException");

        List<Unpublished> failed = publisher.tryPublish(events);

        assertThat(failed).extracting(Unpublished::errorCode).containsOnly("AccessDeniedException");
        assertThat(failed).noneMatch(Unpublished::retryable);
    }

    @Test
    void tryPublish_callThrottledOnEveryAttempt_isRetryable() {
        List<DomainEvent> events = events(2);
        for (int i = 0; i < 5; i++) {
            eventBridge.failNextCall(400, "ThrottlingException");
        }

        List<Unpublished> failed = publisher.tryPublish(events);

        assertThat(failed).extracting(Unpublished::errorCode).containsOnly("ThrottlingException");
        assertThat(failed).allMatch(Unpublished::retryable);
    }

    @Test
    void tryPublish_callWithExpiredCredentials_isRetryable() {
        List<DomainEvent> events = events(2);
        for (int i = 0; i < 5; i++) {
            eventBridge.failNextCall(400, "ExpiredTokenException");
        }

        List<Unpublished> failed = publisher.tryPublish(events);

        assertThat(failed).extracting(Unpublished::errorCode).containsOnly("ExpiredTokenException");
        assertThat(failed).allMatch(Unpublished::retryable);
    }

    @Test
    void tryPublish_credentialsThatCannotBeLoaded_isRetryable() {
        try (EventBridgeClient noCredentials = EventBridgeClient.builder()
                .endpointOverride(eventBridge.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(() -> {
                    throw SdkClientException.create("Unable to load credentials from any of the providers");
                })
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build()) {
            EventBridgePublisher publisher = new EventBridgePublisher(noCredentials, BUS, SOURCE, 1, 2,
                    Duration.ofMillis(1), Duration.ofMillis(2));

            List<Unpublished> failed = publisher.tryPublish(events(2));

            assertThat(failed).hasSize(2).allMatch(Unpublished::retryable);
        }
    }

    @Test
    void tryPublish_entryThatCannotBeSent_isRefusedForGood() {
        DomainEvent broken = new DomainEvent("record-x:PostCreated:post-x", "PostCreated",
                Map.of("value", new Object()));

        List<Unpublished> failed = publisher.tryPublish(List.of(broken));

        assertThat(failed).singleElement().satisfies(unpublished -> {
            assertThat(unpublished.retryable()).isFalse();
            assertThat(unpublished.errorCode()).isEqualTo(EventBridgePublisher.DETAIL_NOT_JSON);
        });
    }

    @Test
    void publish_1000EventsEightCallsAtOnce_acceptsEachEventOnceThroughTheSdkClient() {
        List<DomainEvent> events = events(1000);
        EventBridgePublisher concurrent = new EventBridgePublisher(client, BUS, SOURCE, 8, 5, Duration.ofMillis(1),
                Duration.ofMillis(4));

        List<Unpublished> failed = concurrent.tryPublish(events);

        assertThat(failed).isEmpty();
        assertThat(eventBridge.requests()).hasSize(100)
                .allSatisfy(request -> assertThat(request.entries()).hasSizeBetween(1, 10));
        assertThat(eventBridge.accepted()).hasSize(1000).containsExactlyInAnyOrderElementsOf(ids(events));
    }

    @Test
    void tryPublish_eightCallsAtOnceWithRejectedEntries_retriesTheRetryableAndReturnsTheRefusedInOrder() {
        List<DomainEvent> events = events(200);
        eventBridge.rejectEntry(events.get(150).id(), "MalformedDetail", Integer.MAX_VALUE);
        eventBridge.rejectEntry(events.get(7).id(), "ThrottlingException", 2);
        eventBridge.rejectEntry(events.get(93).id(), "InternalFailure", 1);
        eventBridge.rejectEntry(events.get(12).id(), "AccessDeniedException", Integer.MAX_VALUE);
        EventBridgePublisher concurrent = new EventBridgePublisher(client, BUS, SOURCE, 8, 5, Duration.ofMillis(1),
                Duration.ofMillis(4));

        List<Unpublished> failed = concurrent.tryPublish(events);

        assertThat(failed).extracting(Unpublished::event).containsExactly(events.get(12), events.get(150));
        assertThat(failed).extracting(Unpublished::errorCode)
                .containsExactly("AccessDeniedException", "MalformedDetail");
        assertThat(failed).noneMatch(Unpublished::retryable);
        List<String> published = new ArrayList<>(ids(events));
        published.removeAll(List.of(events.get(12).id(), events.get(150).id()));
        assertThat(eventBridge.accepted()).hasSize(198).containsExactlyInAnyOrderElementsOf(published);
        // 20 calls, then one with events 7 and 93, then one with event 7.
        assertThat(eventBridge.requests()).hasSize(22);
    }

    @Test
    void publish_noEvents_sendsNothing() {
        assertThat(publisher.publish(List.of())).isEmpty();
        assertThat(eventBridge.requests()).isEmpty();
    }

    private static List<DomainEvent> events(int count) {
        return IntStream.range(0, count).mapToObj(EventBridgePublisherIT::event).toList();
    }

    private static DomainEvent event(int i) {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("userId", "user-8790");
        detail.put("postId", "post-" + i);
        detail.put("title", "Post " + i);
        detail.put("tags", List.of("dynamodb", "streams"));
        detail.put("version", 1);
        return new DomainEvent(DomainEvent.idFor("record-" + i, "PostCreated", "post-" + i), "PostCreated", detail);
    }

    private static List<String> ids(List<DomainEvent> events) {
        return events.stream().map(DomainEvent::id).toList();
    }
}
