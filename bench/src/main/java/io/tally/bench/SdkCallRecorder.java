package io.tally.bench;

import java.util.function.Consumer;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * Sees every AWS SDK call made in this JVM (a global interceptor: the SDK loads it for every client it builds, from
 * {@code software/amazon/awssdk/global/handlers/execution.interceptors}), so that the writer mode ({@link WriterRun})
 * can record the DynamoDB calls the local runner's writer makes without a hook in the product. It passes the requests
 * made on the HTTP front's threads to the sink set by {@link #recording}, and does nothing otherwise.
 */
public final class SdkCallRecorder implements ExecutionInterceptor {
    /** The thread name prefix of the local front's request threads ({@code HttpFront}). */
    static final String FRONT_THREADS = "tally-http";
    private static volatile Consumer<SdkRequest> sink;

    /** Public, without arguments: the SDK instantiates it. */
    public SdkCallRecorder() {
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes executionAttributes) {
        Consumer<SdkRequest> current = sink;
        if (current != null && Thread.currentThread().getName().startsWith(FRONT_THREADS)) {
            current.accept(context.request());
        }
    }

    /** Passes the front's SDK requests to {@code target} until the returned handle is closed. */
    static AutoCloseable recording(Consumer<SdkRequest> target) {
        sink = target;
        return () -> sink = null;
    }
}
