package io.tally.core.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

class InvocationLogTest {
    private static final Map<String, String> LAMBDA = Map.of("AWS_LAMBDA_FUNCTION_NAME", "tally-stream",
            "AWS_LAMBDA_FUNCTION_VERSION", "7", "AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "1024");

    @BeforeEach
    @AfterEach
    void fresh() {
        MDC.clear();
        InvocationLog.forgetInvocations();
    }

    @Test
    void anInvocationsLinesCarryItsFields_theFirstOneAColdStart() {
        try (InvocationLog log = InvocationLog.open("req-1", LAMBDA::get,
                "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1")) {
            assertThat(MDC.getCopyOfContextMap()).containsExactlyInAnyOrderEntriesOf(Map.of(
                    InvocationLog.REQUEST_ID, "req-1", InvocationLog.COLD_START, "true",
                    InvocationLog.FUNCTION_NAME, "tally-stream", InvocationLog.FUNCTION_VERSION, "7",
                    InvocationLog.FUNCTION_MEMORY_SIZE, "1024",
                    InvocationLog.TRACE_ID, "1-5759e988-bd862e3fe1be46a994272793"));
        }
        assertThat(MDC.getCopyOfContextMap()).isNullOrEmpty();
        try (InvocationLog log = InvocationLog.open("req-2", LAMBDA::get, null)) {
            assertThat(MDC.get(InvocationLog.REQUEST_ID)).isEqualTo("req-2");
            assertThat(MDC.get(InvocationLog.COLD_START)).isEqualTo("false");
            assertThat(MDC.get(InvocationLog.TRACE_ID)).isNull();
        }
    }

    @Test
    void outsideLambda_onlyTheColdStartIsKnown_andWhatWasThereBeforeStays() {
        MDC.put("caller", "kept");
        try (InvocationLog log = InvocationLog.open(null, name -> null, null)) {
            assertThat(MDC.getCopyOfContextMap()).containsExactlyInAnyOrderEntriesOf(Map.of("caller", "kept",
                    InvocationLog.COLD_START, "true"));
        }
        assertThat(MDC.getCopyOfContextMap()).containsExactlyEntriesOf(Map.of("caller", "kept"));
    }

    @Test
    void theTraceIdIsTheHeadersRoot_fromTheRuntimesPropertyOrElseTheEnvironment() {
        assertThat(InvocationLog.traceRoot("Parent=x; Root=1-abc ;Sampled=0")).isEqualTo("1-abc");
        assertThat(InvocationLog.traceRoot("Parent=x;Sampled=0")).isNull();
        assertThat(InvocationLog.traceRoot("Root=")).isNull();
        assertThat(InvocationLog.traceRoot(null)).isNull();
        try (InvocationLog log = InvocationLog.open("r", Map.of(InvocationLog.TRACE_VARIABLE, "Root=1-env")::get,
                null)) {
            assertThat(MDC.get(InvocationLog.TRACE_ID)).isEqualTo("1-env");
        }
        try (InvocationLog log = InvocationLog.open("r", Map.of(InvocationLog.TRACE_VARIABLE, "Root=1-env")::get,
                "Root=1-property")) {
            assertThat(MDC.get(InvocationLog.TRACE_ID)).isEqualTo("1-property");
        }
    }

    @Test
    void workHandedToAnotherThread_carriesTheFields_andLeavesThatThreadAsItWas() throws Exception {
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            other.submit(() -> MDC.put("worker", "own")).get();
            AtomicReference<String> seen = new AtomicReference<>();
            try (InvocationLog log = InvocationLog.open("req-9", LAMBDA::get, null)) {
                assertThat(other.submit(InvocationLog.carried(() -> MDC.get(InvocationLog.REQUEST_ID))).get())
                        .isEqualTo("req-9");
                other.submit(InvocationLog.carried(() -> seen.set(MDC.get(InvocationLog.FUNCTION_NAME)))).get();
            }
            assertThat(seen.get()).isEqualTo("tally-stream");
            assertThat(other.submit(() -> MDC.getCopyOfContextMap()).get())
                    .containsExactlyEntriesOf(Map.of("worker", "own"));
        } finally {
            other.shutdownNow();
        }
    }
}
