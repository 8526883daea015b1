package io.tally.stream.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.events.DomainEvent;
import io.tally.stream.events.InstrumentedEventBridge.Call;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.eventbridge.model.EventBridgeException;

/**
 * PutEvents calls in flight together, against an in-process client that counts them ({@link InstrumentedEventBridge}):
 * calls are held by latches until as many as the publisher may send are in flight, so a publisher that sends fewer
 * at once fails these tests rather than passing them slowly. No test measures time.
 */
class EventBridgePublisherConcurrencyTest {
    private static final String BUS = "tally-events";
    private static final String SOURCE = "io.tally";

    private final InstrumentedEventBridge eventBridge = new InstrumentedEventBridge();

    @Test
    void tryPublish_2000Events_sendsEightCallsAtOnceOfAtMostTenEntriesEachEventOnce() {
        List<DomainEvent> events = events(2000);
        eventBridge.together(8);

        List<Unpublished> failed = publisher(8, 5).tryPublish(events);

        assertThat(failed).isEmpty();
        assertThat(eventBridge.maxInFlight()).isEqualTo(8);
        List<Call> calls = eventBridge.calls();
        assertThat(calls).hasSize(200).allSatisfy(call -> assertThat(call.entries()).isBetween(1, 10));
        List<String> sent = calls.stream().flatMap(call -> call.eventIds().stream()).toList();
        assertThat(sent).hasSize(2000).containsExactlyInAnyOrderElementsOf(ids(events));
        assertThat(eventBridge.accepted()).containsExactlyInAnyOrderElementsOf(ids(events));
    }

    @Test
    void tryPublish_defaultPublisher_hasSixteenCallsInFlight() {
        List<DomainEvent> events = events(200);
        eventBridge.together(EventBridgePublisher.DEFAULT_CONCURRENCY);
        EventBridgePublisher publisher = new EventBridgePublisher(eventBridge, BUS, SOURCE);

        assertThat(publisher.tryPublish(events)).isEmpty();

        assertThat(publisher.concurrency()).isEqualTo(16);
        assertThat(eventBridge.maxInFlight()).isEqualTo(16);
    }

    @Test
    void tryPublish_concurrencyThree_neverHasMoreCallsInFlightAndSendsFromItsOwnDaemonThreads() {
        List<DomainEvent> events = events(300);
        eventBridge.together(3);

        assertThat(publisher(3, 5).tryPublish(events)).isEmpty();

        assertThat(eventBridge.maxInFlight()).isEqualTo(3);
        List<Call> calls = eventBridge.calls();
        assertThat(calls).hasSize(30);
        Set<Thread> threads = new HashSet<>();
        calls.forEach(call -> threads.add(call.thread()));
        assertThat(threads).hasSize(3).doesNotContain(Thread.currentThread()).allSatisfy(thread -> {
            assertThat(thread.isDaemon()).isTrue();
            assertThat(thread.getName()).startsWith("tally-putevents-");
        });
    }

    @Test
    void tryPublish_concurrencyOne_sendsOneCallAtATimeInOrderOnTheCallingThread() {
        List<DomainEvent> events = events(45);

        assertThat(publisher(1, 5).tryPublish(events)).isEmpty();

        assertThat(eventBridge.maxInFlight()).isEqualTo(1);
        assertThat(eventBridge.calls()).allSatisfy(call -> assertThat(call.thread()).isSameAs(Thread.currentThread()));
        assertThat(eventBridge.accepted()).containsExactlyElementsOf(ids(events));
    }

    @Test
    void tryPublish_retryableEntryFailures_areSentAgainOnlyOnceTheRoundIsOver() {
        List<DomainEvent> events = events(100);
        Map<String, Integer> rejections = Map.of(events.get(3).id(), 1, events.get(17).id(), 1,
                events.get(42).id(), 2, events.get(58).id(), 1, events.get(99).id(), 1);
        eventBridge.together(4).entryError((id, send) -> send <= rejections.getOrDefault(id, 0)
                ? (id.equals(events.get(42).id()) ? "InternalFailure" : "ThrottlingException") : null);

        List<Unpublished> failed = publisher(4, 5).tryPublish(events);

        assertThat(failed).isEmpty();
        for (DomainEvent event : events) {
            assertThat(eventBridge.sends(event.id())).as(event.id())
                    .isEqualTo(1 + rejections.getOrDefault(event.id(), 0));
        }
        assertThat(eventBridge.accepted()).containsExactlyInAnyOrderElementsOf(ids(events));
        List<Call> calls = eventBridge.calls();
        List<Call> firstRound = calls.subList(0, 10);
        List<Call> retries = calls.subList(10, calls.size());
        assertThat(firstRound).flatMap(Call::eventIds).containsExactlyInAnyOrderElementsOf(ids(events));
        // The retried entries go together, in their order, in one call per round.
        assertThat(retries).extracting(Call::eventIds).containsExactly(
                ids(events, 3, 17, 42, 58, 99), ids(events, 42));
        int firstRoundEnded = firstRound.stream().mapToInt(Call::ended).max().orElseThrow();
        assertThat(retries.get(0).started()).isGreaterThan(firstRoundEnded);
        assertThat(retries.get(1).started()).isGreaterThan(retries.get(0).ended());
    }

    @Test
    void tryPublish_failuresOfEveryKindInCallsThatEndOutOfOrder_comeBackInTheOriginalOrder() {
        List<DomainEvent> events = events(60);
        String first = events.get(0).id();
        String last = events.get(50).id();
        // The first call is answered only after the last one has ended: the calls end out of order.
        CountDownLatch lastEnded = new CountDownLatch(1);
        AtomicBoolean firstRound = new AtomicBoolean(true);
        eventBridge
                .onEnter(ids -> {
                    if (ids.contains(first) && firstRound.getAndSet(false)) {
                        InstrumentedEventBridge.await(lastEnded, "the last call ended");
                    }
                })
                .onExit(ids -> {
                    if (ids.contains(last)) {
                        lastEnded.countDown();
                    }
                })
                .entryError((id, send) -> {
                    if (id.equals(events.get(2).id())) {
                        return "AccessDeniedException";
                    }
                    if (id.equals(events.get(5).id())) {
                        return "ThrottlingException";
                    }
                    if (id.equals(events.get(47).id())) {
                        return "SomeNewRefusal";
                    }
                    if (id.equals(events.get(55).id())) {
                        return "InternalFailure";
                    }
                    return null;
                })
                // The call of events 20 to 29 is refused whole; the first answer to that of 30 to 39 lacks a result.
                .callFailure(ids -> ids.contains(events.get(20).id()) ? EventBridgeException.builder()
                        .statusCode(400).message("invalid")
                        .awsErrorDetails(AwsErrorDetails.builder().errorCode("ValidationException").build())
                        .build() : null)
                .missingResults(ids -> ids.contains(events.get(30).id()) ? 1 : 0);

        List<Unpublished> failed = publisher(4, 3).tryPublish(events);

        List<DomainEvent> expected = new ArrayList<>();
        expected.add(events.get(2));
        expected.add(events.get(5));
        expected.addAll(events.subList(20, 30));
        expected.add(events.get(47));
        expected.add(events.get(55));
        assertThat(failed).extracting(Unpublished::event).containsExactlyElementsOf(expected);
        assertThat(failed).extracting(Unpublished::errorCode).containsExactly(
                "AccessDeniedException", "ThrottlingException", "ValidationException", "ValidationException",
                "ValidationException", "ValidationException", "ValidationException", "ValidationException",
                "ValidationException", "ValidationException", "ValidationException", "ValidationException",
                "SomeNewRefusal", "InternalFailure");
        assertThat(failed).extracting(Unpublished::retryable).containsExactly(
                false, true, false, false, false, false, false, false, false, false, false, false, false, true);
        assertThat(failed).extracting(Unpublished::source).containsOnly(SOURCE);
        // Refused events went out once, retryable ones on each of the three rounds, the one without a result twice.
        assertThat(eventBridge.sends(events.get(2).id())).isEqualTo(1);
        assertThat(eventBridge.sends(events.get(20).id())).isEqualTo(1);
        assertThat(eventBridge.sends(events.get(47).id())).isEqualTo(1);
        assertThat(eventBridge.sends(events.get(5).id())).isEqualTo(3);
        assertThat(eventBridge.sends(events.get(55).id())).isEqualTo(3);
        assertThat(eventBridge.sends(events.get(39).id())).isEqualTo(2);
        List<String> published = ids(events).stream()
                .filter(id -> !ids(expected).contains(id)).toList();
        assertThat(eventBridge.accepted()).containsExactlyInAnyOrderElementsOf(published);
        published.stream().filter(id -> !id.equals(events.get(39).id()))
                .forEach(id -> assertThat(eventBridge.sends(id)).as(id).isEqualTo(1));
    }

    @Test
    void tryPublish_interruptedWhileCallsAreInFlight_waitsForThemSendsNoMoreAndReturnsTheRestRetryable()
            throws Exception {
        List<DomainEvent> events = events(60);
        CountDownLatch entered = new CountDownLatch(2);
        CountDownLatch gate = new CountDownLatch(1);
        Set<String> held = Set.copyOf(ids(events.subList(0, 20)));
        eventBridge.onEnter(ids -> {
            if (held.contains(ids.get(0))) {
                entered.countDown();
                InstrumentedEventBridge.await(gate, "the test opened the gate");
            }
        });
        EventBridgePublisher publisher = publisher(2, 5);
        CompletableFuture<Boolean> interruptedAfter = new CompletableFuture<>();
        CompletableFuture<List<Unpublished>> result = new CompletableFuture<>();
        Thread publishing = new Thread(() -> {
            try {
                result.complete(publisher.tryPublish(events));
            } catch (Throwable t) {
                result.completeExceptionally(t);
            } finally {
                interruptedAfter.complete(Thread.currentThread().isInterrupted());
            }
        }, "publishing");
        publishing.start();
        assertThat(entered.await(InstrumentedEventBridge.GUARD_SECONDS, TimeUnit.SECONDS)).isTrue();

        publishing.interrupt();
        gate.countDown();
        List<Unpublished> failed = result.get(InstrumentedEventBridge.GUARD_SECONDS, TimeUnit.SECONDS);

        assertThat(interruptedAfter.get()).as("the interrupt is kept for the caller").isTrue();
        // The two calls in flight were waited for: their events are published, not returned.
        assertThat(eventBridge.accepted()).containsAll(held);
        assertThat(failed).extracting(Unpublished::event).doesNotContainAnyElementsOf(events.subList(0, 20));
        // Every other event was either sent once and accepted, or not sent and returned retryable, in order.
        assertThat(failed).allMatch(unpublished -> unpublished.retryable()
                && unpublished.errorCode().equals(EventBridgePublisher.INTERRUPTED));
        List<DomainEvent> returned = failed.stream().map(Unpublished::event).toList();
        assertThat(returned).isSortedAccordingTo((a, b) -> Integer.compare(events.indexOf(a), events.indexOf(b)));
        for (DomainEvent event : events) {
            int sends = eventBridge.sends(event.id());
            assertThat(sends).as(event.id()).isEqualTo(returned.contains(event) ? 0 : 1);
        }
    }

    @Test
    void tryPublish_aCallThrowsSomethingElseThanAnSdkException_throwsItOnceEveryCallHasEnded() {
        List<DomainEvent> events = events(40);
        IllegalStateException bug = new IllegalStateException("a bug in the client");
        eventBridge.together(4).callFailure(ids -> ids.contains(events.get(10).id()) ? bug : null);

        assertThatThrownBy(() -> publisher(4, 5).tryPublish(events)).isSameAs(bug);

        // Thrown as the sequential loop would throw it, but only after the other calls of the round were answered.
        assertThat(eventBridge.calls()).hasSize(4);
        assertThat(eventBridge.accepted()).hasSize(30).doesNotContainAnyElementsOf(ids(events.subList(10, 20)));
    }

    @Test
    void constructor_concurrencyOutsideOneToFifty_isRefused() {
        assertThatThrownBy(() -> publisher(0, 5)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("concurrency");
        assertThatThrownBy(() -> new EventBridgePublisher(eventBridge, BUS, SOURCE, 51))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("concurrency");
        assertThat(new EventBridgePublisher(eventBridge, BUS, SOURCE, 50).concurrency()).isEqualTo(50);
    }

    private EventBridgePublisher publisher(int concurrency, int maxAttempts) {
        return new EventBridgePublisher(eventBridge, BUS, SOURCE, concurrency, maxAttempts, Duration.ofMillis(1),
                Duration.ofMillis(4));
    }

    private static List<DomainEvent> events(int count) {
        return IntStream.range(0, count).mapToObj(EventBridgePublisherConcurrencyTest::event).toList();
    }

    private static DomainEvent event(int i) {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("userId", "user-" + i % 7);
        detail.put("postId", "post-" + i);
        return new DomainEvent(DomainEvent.idFor("record-" + i, "PostCreated", "post-" + i), "PostCreated", detail);
    }

    private static List<String> ids(List<DomainEvent> events) {
        return events.stream().map(DomainEvent::id).toList();
    }

    private static List<String> ids(List<DomainEvent> events, int... positions) {
        return IntStream.of(positions).mapToObj(position -> events.get(position).id()).toList();
    }
}
