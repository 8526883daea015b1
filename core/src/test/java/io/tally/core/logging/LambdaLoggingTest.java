package io.tally.core.logging;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.LogManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/** The functions' log lines, through SLF4J and java.util.logging as in their jars (slf4j-jdk14 on this path). */
class LambdaLoggingTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ObjectMapper json = new ObjectMapper();

    @AfterEach
    void restore() {
        MDC.clear();
        LogManager.getLogManager().reset();
    }

    private List<JsonNode> lines() throws Exception {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!line.isEmpty()) {
                lines.add(json.readTree(line));
            }
        }
        return lines;
    }

    @Test
    void eachLineIsOneJsonObject_withTheMessageTheErrorAndTheInvocationsFields() throws Exception {
        LambdaLogging.install(new PrintStream(out, true, StandardCharsets.UTF_8), null);
        Logger log = LoggerFactory.getLogger("io.tally.test");
        MDC.put(InvocationLog.REQUEST_ID, "req-7");
        log.warn("quoted \"{}\"\nand a second line\tand a tab", "value \\ with a backslash",
                new IllegalArgumentException("bad\ninput"));
        MDC.clear();
        log.info("plain");
        log.debug("below the level");
        List<JsonNode> lines = lines();
        assertThat(lines).hasSize(2);
        JsonNode warning = lines.get(0);
        assertThat(warning.path("timestamp").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
        assertThat(warning.path("level").asText()).isEqualTo("WARN");
        assertThat(warning.path("message").asText())
                .isEqualTo("quoted \"value \\ with a backslash\"\nand a second line\tand a tab");
        assertThat(warning.path("logger").asText()).isEqualTo("io.tally.test");
        assertThat(warning.path("thread").asText()).isEqualTo(Thread.currentThread().getName());
        assertThat(warning.path("errorType").asText()).isEqualTo("java.lang.IllegalArgumentException");
        assertThat(warning.path("errorMessage").asText()).isEqualTo("bad\ninput");
        assertThat(warning.path("stackTrace").asText()).startsWith("java.lang.IllegalArgumentException: bad")
                .contains("LambdaLoggingTest");
        assertThat(warning.path("function_request_id").asText()).isEqualTo("req-7");
        JsonNode plain = lines.get(1);
        assertThat(plain.path("level").asText()).isEqualTo("INFO");
        assertThat(plain.path("message").asText()).isEqualTo("plain");
        assertThat(plain.has("errorType")).isFalse();
        assertThat(plain.has("function_request_id")).isFalse();
    }

    @Test
    void theLevelIsLambdasApplicationLogLevel() throws Exception {
        LambdaLogging.install(new PrintStream(out, true, StandardCharsets.UTF_8), "debug");
        Logger log = LoggerFactory.getLogger("io.tally.test");
        log.trace("not at DEBUG");
        log.debug("at DEBUG");
        log.error("an error");
        assertThat(lines()).extracting(line -> line.path("level").asText() + " " + line.path("message").asText())
                .containsExactly("DEBUG at DEBUG", "ERROR an error");
    }

    @Test
    void levelsMapBothWays() {
        Map<String, Level> levels = Map.of("TRACE", Level.FINEST, "DEBUG", Level.FINE, "INFO", Level.INFO,
                "WARN", Level.WARNING, "ERROR", Level.SEVERE);
        levels.forEach((name, level) -> {
            assertThat(LambdaLogging.julLevel(name)).isEqualTo(level);
            assertThat(LambdaLogging.slf4jLevel(level)).isEqualTo(name);
        });
        assertThat(LambdaLogging.julLevel("FATAL")).isEqualTo(Level.SEVERE);
        assertThat(LambdaLogging.julLevel(" warn ")).isEqualTo(Level.WARNING);
        assertThat(LambdaLogging.julLevel(null)).isEqualTo(Level.INFO);
        assertThat(LambdaLogging.julLevel("LOUD")).isEqualTo(Level.INFO);
    }
}
