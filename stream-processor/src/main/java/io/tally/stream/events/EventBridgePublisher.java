package io.tally.stream.events;

import io.tally.core.events.DomainEvent;
import io.tally.core.logging.InvocationLog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequest;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResultEntry;

/**
 * Publishes domain events with EventBridge PutEvents, retrying only what failed.
 *
 * <p>Each round sends every pending event in calls of at most {@value #MAX_ENTRIES_PER_CALL} entries and
 * {@value #MAX_CALL_BYTES} bytes, up to {@code concurrency} calls in flight at once (default
 * {@value #DEFAULT_CONCURRENCY}); what the next round resends is exactly the entries EventBridge rejected with a
 * retryable code and the calls that failed retryably, so an accepted event is never sent again. The SDK client
 * retries a failed call on its own first; these rounds add backoff across calls and the per-entry retries the
 * SDK cannot do. What is not published comes back with its error code and whether it was refused for good (a
 * non-retryable entry code, a call refused with a client error such as {@code AccessDeniedException} or
 * {@code ResourceNotFoundException}, an entry that cannot be sent) or only ran out of attempts, in the events'
 * original order whatever order the calls finished in.
 *
 * <p><b>Concurrency.</b> A batch of 1,000 stream records announces about 2,000 events, some 200 calls: one after
 * another, at PutEvents' tens of milliseconds, that is seconds per batch. A round's calls are therefore sent by a pool
 * of at most {@code concurrency} daemon threads owned by the publisher (the {@link EventBridgeClient} is thread-safe);
 * the calling thread waits for the round to end, and a round of a single call is sent on the calling thread. Threads
 * that publish through one publisher at once (the local runner's shards share one) share its pool, so the bound is the
 * publisher's, not each caller's; a Lambda environment runs one invocation at a time. The threads are created when
 * first needed and end after {@value #IDLE_SECONDS} idle seconds, and as daemons never keep a JVM alive: a Lambda
 * execution environment is frozen, never shut down, so the publisher has nothing to close. With concurrency 1 no thread
 * is created and the calls go one after another, as before.
 *
 * <p>Why {@value #DEFAULT_CONCURRENCY}: it cuts those 200 calls to 13 waves, a few hundred milliseconds, so that a
 * shard whose partition takes writes at its limit (about 1,000 a second) keeps up with a margin, events included: the
 * benchmark's AWS-latency mode measured the settings side by side (BENCHMARKS.md, "Calls in flight, side by side"), and
 * 16 of these with the engine's 16 derived writes kept a shard ahead with a margin that 8 did not. One busy shard then
 * makes some 500 PutEvents calls a second (16 calls of about 30 ms), a share of the account's PutEvents quota, a
 * per-Region soft limit from 10,000 requests a second in the largest Regions down to a few hundred in others, which
 * every shard's processor and every other publisher of the account share. Throttling (of a call, or of entries) is
 * retryable and retried here with full-jitter backoff, so a quota reached slows publishing rather than losing anything
 * (a bus that keeps throttling ends in dead letters to republish, as any retryable failure does); a deployment with
 * many busy shards in a Region with a small quota lowers the concurrency ({@code EVENT_PUBLISH_CONCURRENCY}, see
 * {@code StreamWiring}) or raises the quota. The stream functions' HTTP client is the SDK's URL connection client, not
 * the Apache client with its pool of 50: it has no connection limit to wait on (each call in flight takes a connection
 * of its own, reusing an idle one when there is one), and the stream function keeps up to 32 idle connections per host
 * ({@code StreamWiring}), so a round's connections are handed on to the next round rather than closed and opened again.
 *
 * <p><b>Order.</b> Calls in flight together finish in any order, so EventBridge may accept an event before one that
 * was handed in before it, of the same subject too: the order is not kept, as EventBridge never promised it for
 * delivery either (docs/events.md says what subscribers use instead). Only the returned unpublished events keep
 * their original order, which the engine's failure point depends on.
 */
public final class EventBridgePublisher implements EventPublisher {
    static final int MAX_ENTRIES_PER_CALL = 10;
    static final int MAX_CALL_BYTES = 256 * 1024;
    /** PutEvents calls in flight at once unless configured otherwise: see the class comment. */
    public static final int DEFAULT_CONCURRENCY = 16;
    /**
     * The most calls in flight one publisher allows: a guard against a typo in the configuration, 50 calls of 30 ms
     * being already some 1,700 calls a second from one shard.
     */
    public static final int MAX_CONCURRENCY = 50;
    /** How long an idle sending thread lives. */
    static final int IDLE_SECONDS = 60;

    /** The error code of an entry whose result is missing from PutEvents' answer. */
    static final String NO_RESULT = "NoResult";
    /** The error code of an event whose entry exceeds {@value #MAX_CALL_BYTES} bytes: never sent. */
    public static final String ENTRY_TOO_LARGE = "EntryTooLarge";
    /** The error code of an event whose detail cannot be written as JSON: never sent. */
    public static final String DETAIL_NOT_JSON = "DetailNotJson";
    /**
     * The error code of an event whose call was not sent because the publishing thread was interrupted while the
     * round's other calls were in flight: retryable.
     */
    static final String INTERRUPTED = "Interrupted";

    private static final Logger LOG = LoggerFactory.getLogger(EventBridgePublisher.class);
    /** Numbers the publishers' thread pools, to tell their threads apart. */
    private static final AtomicInteger POOLS = new AtomicInteger();
    private final EventBridgeClient client;
    private final String eventBusName;
    private final String source;
    private final int maxAttempts;
    private final Duration baseDelay;
    private final Duration maxDelay;
    private final int concurrency;
    /** Sends the calls of a round of more than one; null with concurrency 1. */
    private final ThreadPoolExecutor sender;

    /** A publisher with {@value #DEFAULT_CONCURRENCY} calls in flight at most. */
    public EventBridgePublisher(EventBridgeClient client, String eventBusName, String source) {
        this(client, eventBusName, source, DEFAULT_CONCURRENCY);
    }

    /**
     * A publisher with at most {@code concurrency} PutEvents calls in flight at once.
     *
     * @param concurrency 1 to {@value #MAX_CONCURRENCY}; 1 sends the calls one after another on the calling thread
     */
    public EventBridgePublisher(EventBridgeClient client, String eventBusName, String source, int concurrency) {
        this(client, eventBusName, source, concurrency, 5, Duration.ofMillis(100), Duration.ofSeconds(2));
    }

    EventBridgePublisher(EventBridgeClient client, String eventBusName, String source, int concurrency,
                         int maxAttempts, Duration baseDelay, Duration maxDelay) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1");
        }
        if (concurrency < 1 || concurrency > MAX_CONCURRENCY) {
            throw new IllegalArgumentException("concurrency must be 1.." + MAX_CONCURRENCY + ": " + concurrency);
        }
        this.client = client;
        this.eventBusName = eventBusName;
        this.source = source;
        this.maxAttempts = maxAttempts;
        this.baseDelay = baseDelay;
        this.maxDelay = maxDelay;
        this.concurrency = concurrency;
        if (concurrency == 1) {
            this.sender = null;
        } else {
            // Core and maximum alike with an unbounded queue: a round's calls beyond the threads wait their turn. The
            // queue holds at most the calls of the rounds under way, each a few hundred at most.
            this.sender = new ThreadPoolExecutor(concurrency, concurrency, IDLE_SECONDS, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>(), daemonThreads());
            this.sender.allowCoreThreadTimeOut(true);
        }
    }

    /** The most PutEvents calls this publisher has in flight at once. */
    public int concurrency() {
        return concurrency;
    }

    @Override
    public List<Unpublished> tryPublish(List<DomainEvent> events) {
        List<PutEventsRequestEntry> entries = new ArrayList<>(events.size());
        SortedMap<Integer, Unpublished> failed = new TreeMap<>();
        List<Integer> pending = new ArrayList<>();
        for (int position = 0; position < events.size(); position++) {
            DomainEvent event = events.get(position);
            PutEventsRequestEntry entry;
            try {
                entry = PutEventsEntries.entry(event, eventBusName, source);
            } catch (IllegalArgumentException e) {
                LOG.error("Event {} ({}) not published: {}", event.id(), event.detailType(), e.getMessage(), e);
                entries.add(null);
                failed.put(position, Unpublished.refused(event, source, DETAIL_NOT_JSON));
                continue;
            }
            entries.add(entry);
            int size = PutEventsEntries.entrySize(entry);
            if (size > MAX_CALL_BYTES) {
                LOG.error("Event {} ({}) not published: its entry is {} bytes, EventBridge accepts at most {}",
                        event.id(), event.detailType(), size, MAX_CALL_BYTES);
                failed.put(position, Unpublished.refused(event, source, ENTRY_TOO_LARGE));
            } else {
                pending.add(position);
            }
        }
        for (int attempt = 1; !pending.isEmpty(); attempt++) {
            Map<Integer, String> retry = new LinkedHashMap<>();
            // In the order of the calls, not the order they finished in: positions ascend in the next round too.
            for (Sent sent : sendAll(PutEventsEntries.calls(pending, entries), entries, events)) {
                retry.putAll(sent.retry());
                failed.putAll(sent.refused());
            }
            if (!retry.isEmpty() && (attempt == maxAttempts || !pause(attempt))) {
                LOG.error("{} events not published after {} attempts: {}", retry.size(), attempt,
                        retry.keySet().stream().map(position -> events.get(position).id()).toList());
                retry.forEach((position, errorCode) ->
                        failed.put(position, Unpublished.retryable(events.get(position), source, errorCode)));
                break;
            }
            pending = new ArrayList<>(retry.keySet());
        }
        return List.copyOf(failed.values());
    }

    /**
     * What became of one call's events: those worth another round, each with its error code, and those that never
     * will be, by position.
     */
    private record Sent(Map<Integer, String> retry, Map<Integer, Unpublished> refused) {
        /** A call that was not sent: all its events are worth another round. */
        static Sent notSent(List<Integer> call, String errorCode) {
            Map<Integer, String> retry = new LinkedHashMap<>();
            call.forEach(position -> retry.put(position, errorCode));
            return new Sent(retry, Map.of());
        }
    }

    /**
     * Sends a round's calls, up to {@link #concurrency} at once, and returns what became of each, in the order of
     * the calls. Waits for every call it started: a call's answer decides whether its events are sent again, and an
     * accepted event must not be. If the calling thread is interrupted, the calls not yet started are not sent
     * (their events come back {@value #INTERRUPTED}, retryable) and the interrupt is kept for the caller.
     *
     * @throws RuntimeException what a call threw other than an {@link SdkException}, as a sequential send would,
     *                          once every call started has ended
     */
    private List<Sent> sendAll(List<List<Integer>> calls, List<PutEventsRequestEntry> entries,
                               List<DomainEvent> events) {
        if (sender == null || calls.size() == 1) {
            List<Sent> sent = new ArrayList<>(calls.size());
            for (List<Integer> call : calls) {
                sent.add(send(call, entries, events));
            }
            return sent;
        }
        AtomicBoolean stop = new AtomicBoolean();
        List<Future<Sent>> futures = new ArrayList<>(calls.size());
        for (List<Integer> call : calls) {
            futures.add(sender.submit(InvocationLog.carried(() ->
                    stop.get() ? Sent.notSent(call, INTERRUPTED) : send(call, entries, events))));
        }
        List<Sent> sent = new ArrayList<>(calls.size());
        Throwable thrown = null;
        boolean interrupted = false;
        for (int i = 0; i < futures.size(); i++) {
            while (true) {
                try {
                    sent.add(futures.get(i).get());
                    break;
                } catch (InterruptedException e) {
                    // Stop starting calls, but wait for those under way: their events may have been accepted.
                    interrupted = true;
                    stop.set(true);
                } catch (ExecutionException e) {
                    // Thrown once every call has ended, as the sequential loop would have thrown it.
                    if (thrown == null) {
                        thrown = e.getCause();
                    } else if (e.getCause() != thrown) {
                        thrown.addSuppressed(e.getCause());
                    }
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (thrown instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (thrown instanceof Error error) {
            throw error;
        }
        if (thrown != null) {
            throw new IllegalStateException("a PutEvents call failed", thrown);
        }
        return sent;
    }

    /** Sends one call. Touches nothing but the client and its own result: calls of a round run at once. */
    private Sent send(List<Integer> call, List<PutEventsRequestEntry> entries, List<DomainEvent> events) {
        Map<Integer, String> retry = new LinkedHashMap<>();
        Map<Integer, Unpublished> refused = new LinkedHashMap<>();
        List<PutEventsResultEntry> results;
        try {
            results = client.putEvents(request(call, entries)).entries();
        } catch (SdkException e) {
            String errorCode = PutEventsFailures.errorCode(e);
            if (PutEventsFailures.retryable(e)) {
                LOG.warn("PutEvents call of {} entries failed, retryable: {} {}", call.size(), errorCode,
                        e.getMessage());
                call.forEach(position -> retry.put(position, errorCode));
                return new Sent(retry, refused);
            }
            LOG.error("PutEvents call of {} entries failed, not retryable: {} {}", call.size(), errorCode,
                    e.getMessage(), e);
            call.forEach(position ->
                    refused.put(position, Unpublished.refused(events.get(position), source, errorCode)));
            return new Sent(retry, refused);
        }
        for (int i = 0; i < call.size(); i++) {
            int position = call.get(i);
            // Results line up with the request's entries by index; a missing one is treated as not accepted.
            PutEventsResultEntry result = i < results.size() ? results.get(i) : null;
            String errorCode = result == null ? NO_RESULT : result.errorCode();
            if (errorCode == null) {
                continue;
            }
            LOG.warn("Event {} ({}) rejected by EventBridge: {} {}", events.get(position).id(),
                    events.get(position).detailType(), errorCode, result == null ? "" : result.errorMessage());
            if (PutEventsFailures.retryableEntry(errorCode)) {
                retry.put(position, errorCode);
            } else {
                refused.put(position, Unpublished.refused(events.get(position), source, errorCode));
            }
        }
        return new Sent(retry, refused);
    }

    /** Full jitter, so that concurrent shards throttled together do not retry in lockstep. */
    private boolean pause(int attempt) {
        long ceiling = Math.min(maxDelay.toMillis(), baseDelay.toMillis() << Math.min(attempt - 1, 20));
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(ceiling + 1));
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private PutEventsRequest request(List<Integer> call, List<PutEventsRequestEntry> entries) {
        return PutEventsRequest.builder().entries(call.stream().map(entries::get).toList()).build();
    }

    /**
     * Daemons, as the engine's derived-write threads: a publisher is never closed, and its threads must not keep a
     * JVM (a frozen Lambda environment, a CLI, a test run) alive.
     */
    private static ThreadFactory daemonThreads() {
        int pool = POOLS.incrementAndGet();
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, "tally-putevents-" + pool + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
