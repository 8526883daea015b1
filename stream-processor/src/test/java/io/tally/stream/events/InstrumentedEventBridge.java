package io.tally.stream.events;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequest;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResponse;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResultEntry;

/**
 * An in-process {@link EventBridgeClient} for PutEvents that records how many calls are in flight at once, on which
 * threads, in what order they started and ended, and how often each event (by the {@code eventId} of its detail) was
 * sent. Tests steer it with hooks run inside a call: what each entry answers, whether the whole call fails, how many
 * results go missing, and latches that hold calls so that they overlap (never a sleep).
 */
final class InstrumentedEventBridge implements EventBridgeClient {
    /** How long a latch inside a call may wait before the call fails the test: a guard, not a measurement. */
    static final long GUARD_SECONDS = 30;
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One call as it happened: its events, the thread that made it, and when it started and ended on a counter
     * shared by every call's start and end (so {@code a.ended() < b.started()} means a ended before b started).
     */
    record Call(List<String> eventIds, int entries, Thread thread, int started, int ended) {
    }

    private final AtomicInteger clock = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private final List<Call> calls = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, AtomicInteger> sends = new ConcurrentHashMap<>();
    private final List<String> accepted = Collections.synchronizedList(new ArrayList<>());

    private volatile Consumer<List<String>> onEnter = ids -> { };
    private volatile Consumer<List<String>> onExit = ids -> { };
    private volatile BiFunction<String, Integer, String> entryError = (id, send) -> null;
    private volatile Function<List<String>, RuntimeException> callFailure = ids -> null;
    private volatile ToIntFunction<List<String>> missingResults = ids -> 0;

    /** Runs inside every call with its event ids, before it is answered: where a test holds calls. */
    InstrumentedEventBridge onEnter(Consumer<List<String>> hook) {
        this.onEnter = hook;
        return this;
    }

    /** Runs when a call has been answered (or failed), with its event ids. */
    InstrumentedEventBridge onExit(Consumer<List<String>> hook) {
        this.onExit = hook;
        return this;
    }

    /** The entry error code for an event id on its n-th send (1 = first), or null to accept it. */
    InstrumentedEventBridge entryError(BiFunction<String, Integer, String> rule) {
        this.entryError = rule;
        return this;
    }

    /** The exception a call with these event ids throws (each id already counted as sent), or null to answer it. */
    InstrumentedEventBridge callFailure(Function<List<String>, RuntimeException> rule) {
        this.callFailure = rule;
        return this;
    }

    /** How many results to leave off the end of the answer to a call with these event ids. */
    InstrumentedEventBridge missingResults(ToIntFunction<List<String>> rule) {
        this.missingResults = rule;
        return this;
    }

    /**
     * Holds each of the first {@code count} calls until {@code count} calls are in flight together. A publisher that
     * sends fewer at once never gets there: the call fails with an AssertionError after {@value #GUARD_SECONDS} s.
     */
    InstrumentedEventBridge together(int count) {
        CountDownLatch latch = new CountDownLatch(count);
        return onEnter(ids -> {
            latch.countDown();
            await(latch, count + " calls in flight together");
        });
    }

    /** Waits for a latch inside a call; fails the call (and so the test) if the guard runs out. */
    static void await(CountDownLatch latch, String what) {
        try {
            if (!latch.await(GUARD_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("never reached: " + what);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for: " + what, e);
        }
    }

    @Override
    public PutEventsResponse putEvents(PutEventsRequest request) {
        int started = clock.incrementAndGet();
        maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        List<String> ids = request.entries().stream().map(InstrumentedEventBridge::eventId).toList();
        List<Integer> sendNumbers = ids.stream().map(id -> sends.computeIfAbsent(id, k -> new AtomicInteger())
                .incrementAndGet()).toList();
        try {
            onEnter.accept(ids);
            RuntimeException failure = callFailure.apply(ids);
            if (failure != null) {
                throw failure;
            }
            List<PutEventsResultEntry> results = new ArrayList<>();
            int failed = 0;
            for (int i = 0; i < ids.size() - missingResults.applyAsInt(ids); i++) {
                String errorCode = entryError.apply(ids.get(i), sendNumbers.get(i));
                if (errorCode == null) {
                    accepted.add(ids.get(i));
                    results.add(PutEventsResultEntry.builder().eventId("eb-" + ids.get(i)).build());
                } else {
                    failed++;
                    results.add(PutEventsResultEntry.builder().errorCode(errorCode).errorMessage("by the test")
                            .build());
                }
            }
            return PutEventsResponse.builder().failedEntryCount(failed).entries(results).build();
        } finally {
            inFlight.decrementAndGet();
            calls.add(new Call(ids, ids.size(), Thread.currentThread(), started, clock.incrementAndGet()));
            onExit.accept(ids);
        }
    }

    /** The most calls that were in flight at once. */
    int maxInFlight() {
        return maxInFlight.get();
    }

    /** Every call, in the order they started. */
    List<Call> calls() {
        synchronized (calls) {
            return calls.stream().sorted(Comparator.comparingInt(Call::started)).toList();
        }
    }

    /** How many times the event was sent. */
    int sends(String eventId) {
        AtomicInteger count = sends.get(eventId);
        return count == null ? 0 : count.get();
    }

    /** The event ids of the entries accepted, in the order they were accepted. */
    List<String> accepted() {
        synchronized (accepted) {
            return List.copyOf(accepted);
        }
    }

    static String eventId(PutEventsRequestEntry entry) {
        try {
            return JSON.readTree(entry.detail()).path("eventId").asText();
        } catch (IOException e) {
            throw new IllegalStateException("Detail is not JSON: " + entry.detail(), e);
        }
    }

    @Override
    public String serviceName() {
        return SERVICE_NAME;
    }

    @Override
    public void close() {
    }
}
