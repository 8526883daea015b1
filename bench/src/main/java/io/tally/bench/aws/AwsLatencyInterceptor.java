package io.tally.bench.aws;

import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Makes every call of the client it is added to take as long as the same call would on AWS, per the
 * {@link LatencyModel}: for each attempt it draws a latency for the operation, lets the local service answer (it
 * still does the real work), and then holds the answer for what is left of the draw. When the local service took
 * longer than the draw, nothing is added and {@link CallTimes} notes it: that call measured the emulator.
 *
 * <p>Added per client ({@code ClientOverrideConfiguration.addExecutionInterceptor}), for synchronous clients: the
 * pause blocks the calling thread, as waiting for a network answer does.
 */
public final class AwsLatencyInterceptor implements ExecutionInterceptor {
    private static final ExecutionAttribute<Long> SENT = new ExecutionAttribute<>("tally.bench.aws.sent");
    private static final ExecutionAttribute<Boolean> COUNTED = new ExecutionAttribute<>("tally.bench.aws.counted");

    private final LatencyModel model;
    private final CallTimes times;
    private final RandomGenerator random;
    private final double scale;

    public AwsLatencyInterceptor(LatencyModel model, CallTimes times, long seed) {
        this(model, times, seed, 1);
    }

    /** Every draw {@code scale} times as long: time running slower, as {@link ArrivingShard} explains. */
    public AwsLatencyInterceptor(LatencyModel model, CallTimes times, long seed, double scale) {
        if (!(scale >= 1)) {
            throw new IllegalArgumentException("the scale must be at least 1: " + scale);
        }
        this.scale = scale;
        this.model = Objects.requireNonNull(model, "model");
        this.times = Objects.requireNonNull(times, "times");
        // Jumpable and thread-safe through the lock below: the draws of one run repeat with its seed.
        this.random = RandomGeneratorFactory.of("L64X128MixRandom").create(seed);
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        times.started(service(attributes), System.nanoTime());
        attributes.putAttribute(COUNTED, Boolean.TRUE);
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        attributes.putAttribute(SENT, System.nanoTime());
    }

    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
        Long sent = attributes.getAttribute(SENT);
        if (sent == null) {
            return;
        }
        long local = System.nanoTime() - sent;
        String service = service(attributes);
        String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
        long drawn;
        synchronized (random) {
            drawn = Math.round(model.of(service, operation).drawNanos(random) * scale);
        }
        times.attempt(service, operation, local, drawn);
        if (drawn > local) {
            pause(drawn - local);
        }
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        ended(attributes);
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        ended(attributes);
    }

    private void ended(ExecutionAttributes attributes) {
        if (Boolean.TRUE.equals(attributes.getAttribute(COUNTED))) {
            attributes.putAttribute(COUNTED, Boolean.FALSE);
            times.ended(service(attributes), System.nanoTime());
        }
    }

    /**
     * The service as the model names it ({@code DynamoDB}, {@code EventBridge}, {@code DynamoDB Streams}); the SDK
     * says {@code DynamoDb}.
     */
    public static String service(ExecutionAttributes attributes) {
        String name = attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME);
        if (name == null) {
            return "unknown";
        }
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "dynamodb" -> "DynamoDB";
            case "eventbridge" -> "EventBridge";
            case "dynamodbstreams" -> "DynamoDB Streams";
            default -> name;
        };
    }

    /** Parks until {@code nanos} have passed: finer than {@code Thread.sleep}, which rounds to milliseconds. */
    public static void pause(long nanos) {
        long deadline = System.nanoTime() + nanos;
        for (long left = nanos; left > 0 && !Thread.currentThread().isInterrupted(); left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }
}
