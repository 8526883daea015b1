package io.tally.core.logging;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.slf4j.MDC;

/**
 * The fields every log line of a function invocation carries, under the names Powertools for AWS Lambda gives them:
 * the request id, whether the invocation is the execution environment's first (its cold start), and the function's
 * name, version and memory size and the X-Ray trace id as Lambda sets them. They are kept in SLF4J's MDC, so that the
 * logging backend writes them: the functions' JSON lines ({@link LambdaLogging}) carry each at the top level; a
 * backend without an MDC leaves them out. A field Lambda does not set (outside Lambda) is left out too.
 *
 * <p>A handler opens one per invocation and closes it when the invocation ends ({@code try (InvocationLog log =
 * InvocationLog.open(requestId)) {...}}). The MDC is per thread: work the invocation hands to other threads takes the
 * fields along with {@link #carried(Callable)}.
 */
public final class InvocationLog implements AutoCloseable {
    public static final String REQUEST_ID = "function_request_id";
    public static final String COLD_START = "cold_start";
    public static final String FUNCTION_NAME = "function_name";
    public static final String FUNCTION_VERSION = "function_version";
    public static final String FUNCTION_MEMORY_SIZE = "function_memory_size";
    public static final String TRACE_ID = "xray_trace_id";

    /** The system property the Lambda Java runtime sets to the invocation's X-Ray trace header. */
    static final String TRACE_PROPERTY = "com.amazonaws.xray.traceHeader";
    /** The environment variable Lambda sets to it (the runtime's property is read first). */
    static final String TRACE_VARIABLE = "_X_AMZN_TRACE_ID";

    /** Whether no invocation has opened a log in this process yet. */
    private static final AtomicBoolean COLD = new AtomicBoolean(true);

    private final Map<String, String> previous;

    private InvocationLog(Map<String, String> previous) {
        this.previous = previous;
    }

    /**
     * Puts the invocation's fields in this thread's MDC, from Lambda's environment.
     *
     * @param requestId the invocation's request id ({@code Context.getAwsRequestId()}), null when there is none
     */
    public static InvocationLog open(String requestId) {
        return open(requestId, System::getenv, System.getProperty(TRACE_PROPERTY));
    }

    /** As {@link #open(String)}, from the given environment and the runtime's trace header. */
    static InvocationLog open(String requestId, Function<String, String> env, String traceHeader) {
        InvocationLog log = new InvocationLog(MDC.getCopyOfContextMap());
        put(REQUEST_ID, requestId);
        MDC.put(COLD_START, Boolean.toString(COLD.getAndSet(false)));
        put(FUNCTION_NAME, env.apply("AWS_LAMBDA_FUNCTION_NAME"));
        put(FUNCTION_VERSION, env.apply("AWS_LAMBDA_FUNCTION_VERSION"));
        put(FUNCTION_MEMORY_SIZE, env.apply("AWS_LAMBDA_FUNCTION_MEMORY_SIZE"));
        put(TRACE_ID, traceRoot(traceHeader != null ? traceHeader : env.apply(TRACE_VARIABLE)));
        return log;
    }

    /**
     * The trace id of an X-Ray trace header ({@code Root=1-5759e988-bd862e3fe1be46a994272793;Parent=...;Sampled=1}):
     * its {@code Root} field; null when there is none.
     */
    static String traceRoot(String header) {
        if (header == null) {
            return null;
        }
        for (String field : header.split(";")) {
            String trimmed = field.trim();
            if (trimmed.startsWith("Root=") && trimmed.length() > "Root=".length()) {
                return trimmed.substring("Root=".length());
            }
        }
        return null;
    }

    private static void put(String key, String value) {
        if (value != null && !value.isBlank()) {
            MDC.put(key, value);
        } else {
            MDC.remove(key);
        }
    }

    /** A task that runs with the fields of the thread that made it (the invocation's), on whatever thread runs it. */
    public static <T> Callable<T> carried(Callable<T> task) {
        Map<String, String> fields = MDC.getCopyOfContextMap();
        if (fields == null || fields.isEmpty()) {
            return task;
        }
        return () -> {
            Map<String, String> before = MDC.getCopyOfContextMap();
            MDC.setContextMap(fields);
            try {
                return task.call();
            } finally {
                restore(before);
            }
        };
    }

    /** As {@link #carried(Callable)}, for a task without a result. */
    public static Runnable carried(Runnable task) {
        Callable<Void> call = carried(() -> {
            task.run();
            return null;
        });
        return () -> {
            try {
                call.call();
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e); // a Runnable throws no checked exception
            }
        };
    }

    /** Takes the invocation's fields out of this thread's MDC again (what was there before stays). */
    @Override
    public void close() {
        restore(previous);
    }

    private static void restore(Map<String, String> fields) {
        if (fields == null || fields.isEmpty()) {
            MDC.clear();
        } else {
            MDC.setContextMap(new LinkedHashMap<>(fields));
        }
    }

    /** Makes the next invocation count as the process's first again; for tests. */
    static void forgetInvocations() {
        COLD.set(true);
    }
}
