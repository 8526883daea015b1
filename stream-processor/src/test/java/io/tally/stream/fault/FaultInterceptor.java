package io.tally.stream.fault;

import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.RequestLimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;

/**
 * Fails SDK calls at random: before the request is sent (nothing written) or after the response came back
 * (written, but the caller is told it failed), with the errors DynamoDB answers under load; and simulates a
 * crash: after N calls of an invocation every further call fails and the invocation's outcome is discarded.
 */
final class FaultInterceptor implements ExecutionInterceptor {
    private volatile Random random = new Random(0);
    private volatile double probability;
    private volatile int crashAfter = -1;
    private final AtomicInteger calls = new AtomicInteger();
    private volatile boolean crashed;

    void configure(Random random, double probability) {
        this.random = new Random(random.nextLong());
        this.probability = probability;
    }

    void off() {
        probability = 0;
        crashAfter = -1;
    }

    void crashAfter(int calls) {
        this.calls.set(0);
        this.crashAfter = calls;
    }

    boolean crashed() {
        return crashed;
    }

    void resetCrash() {
        crashed = false;
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        if (crashAfter >= 0 && calls.incrementAndGet() > crashAfter) {
            crashed = true;
            throw new IllegalStateException("injected crash: the function died here");
        }
        if (roll()) {
            throw fault();
        }
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        if (roll()) {
            throw fault();
        }
    }

    private boolean roll() {
        synchronized (this) {
            return probability > 0 && random.nextDouble() < probability;
        }
    }

    private RuntimeException fault() {
        int kind;
        synchronized (this) {
            kind = random.nextInt(3);
        }
        return switch (kind) {
            case 0 -> ProvisionedThroughputExceededException.builder().message("injected throttling").statusCode(400).build();
            case 1 -> TransactionConflictException.builder().message("injected transaction conflict").statusCode(400).build();
            default -> RequestLimitExceededException.builder().message("injected request limit").statusCode(400).build();
        };
    }
}
