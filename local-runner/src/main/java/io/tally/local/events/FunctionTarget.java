package io.tally.local.events;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tally.local.lambda.LocalLambdaContext;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Lambda function as a rule's target, as EventBridge invokes one: asynchronously (after PutEvents has answered),
 * one event per invocation, the envelope as the input, retried when it throws ({@link #ATTEMPTS} in all, as the
 * deployed rule's retry policy), then given up on with an error in the log (the deployed target's dead-letter queue).
 * The invocations of one target run one at a time, in the order the events were accepted.
 */
public final class FunctionTarget implements EventTarget, AutoCloseable {
    /** The first invocation and the retries. */
    static final int ATTEMPTS = 3;
    private static final Logger LOG = LoggerFactory.getLogger(FunctionTarget.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String rule;
    private final String functionName;
    private final RequestStreamHandler handler;
    private final ExecutorService executor;
    private final AutoCloseable resources;

    /**
     * @param rule         the rule whose events the function gets
     * @param functionName the function's name, as its context shows it
     * @param resources    what the function holds (its SDK client), closed after its last invocation
     */
    public FunctionTarget(String rule, String functionName, RequestStreamHandler handler, AutoCloseable resources) {
        this.resources = Objects.requireNonNull(resources, "resources");
        this.rule = Objects.requireNonNull(rule, "rule");
        this.functionName = Objects.requireNonNull(functionName, "functionName");
        this.handler = Objects.requireNonNull(handler, "handler");
        this.executor = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "tally-target-" + rule);
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public void deliver(MatchedEvent event) {
        if (event.rules().contains(rule)) {
            executor.execute(() -> invoke(event));
        }
    }

    private void invoke(MatchedEvent event) {
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try {
                handler.handleRequest(new ByteArrayInputStream(JSON.writeValueAsBytes(event.event())),
                        new ByteArrayOutputStream(),
                        new LocalLambdaContext(functionName, Duration.ofSeconds(30), Clock.systemUTC()));
                return;
            } catch (IOException | RuntimeException e) {
                if (attempt == ATTEMPTS) {
                    LOG.error("rule {}: {} failed on event {} {} times; given up", rule, functionName, event.id(),
                            ATTEMPTS, e);
                } else {
                    LOG.warn("rule {}: {} failed on event {} (attempt {}), retrying: {}", rule, functionName,
                            event.id(), attempt, e.toString());
                }
            }
        }
    }

    /** Lets the invocations already queued finish, for a few seconds at most. */
    @Override
    public void close() {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        } finally {
            try {
                resources.close();
            } catch (Exception e) {
                LOG.debug("closing {}'s resources failed", functionName, e);
            }
        }
    }
}
