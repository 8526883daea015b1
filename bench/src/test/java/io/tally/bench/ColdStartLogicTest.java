package io.tally.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cold-start benchmark's non-timed logic: statistics, parsing, the PutEvents stub, rendering, the jars. */
class ColdStartLogicTest {
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void summary_isTheMedianMinAndMax_ofOddAndEvenCounts() {
        assertThat(ColdStartResults.Summary.of(List.of(900.0, 700.0, 1300.0, 800.0, 1000.0)))
                .isEqualTo(new ColdStartResults.Summary(900.0, 700.0, 1300.0));
        assertThat(ColdStartResults.Summary.of(List.of(4.0, 1.0, 3.0, 2.0)))
                .isEqualTo(new ColdStartResults.Summary(2.5, 1.0, 4.0));
        assertThat(ColdStartResults.Summary.of(List.of(5.0))).isEqualTo(new ColdStartResults.Summary(5.0, 5.0, 5.0));
        assertThat(ColdStartResults.Summary.of(List.of()).median()).isNaN();
    }

    @Test
    void childLine_isParsed_andOtherOutputIgnored() {
        ColdStart.ChildLine line = ColdStart.parse(ColdStartHarness.MARKER
                + " constructNanos=412000000 eventNanos=3500000 invokeNanos=380250000 status=201");
        assertThat(line).isEqualTo(new ColdStart.ChildLine(412.0, 3.5, 380.25, "status=201"));
        assertThat(ColdStart.parse("{\"_aws\":{\"CloudWatchMetrics\":[]}}")).isNull();
    }

    @Test
    void summarize_splitsTheTotal_andJudgesTheMedianAgainstTheTarget() {
        ColdStart.HandlerSpec spec = ColdStart.HANDLERS.get(0);
        ColdStartResults.HandlerResult fast = ColdStart.summarize(spec, List.of(
                new ColdStartResults.Run(1000, 400, 10, 300, "status=201"),
                new ColdStartResults.Run(1200, 500, 10, 300, "status=201"),
                new ColdStartResults.Run(1600, 600, 10, 400, "status=201")));
        assertThat(fast.totalMs()).isEqualTo(new ColdStartResults.Summary(1200, 1000, 1600));
        assertThat(fast.constructMs().median()).isEqualTo(500);
        assertThat(fast.firstEventMs().median()).isEqualTo(310);
        assertThat(fast.jvmStartMs().median()).isEqualTo(390);
        assertThat(fast.targetMet()).isTrue();
        assertThat(ColdStart.summarize(spec, List.of(new ColdStartResults.Run(1500, 1, 1, 1, "status=201")))
                .targetMet()).isFalse();
    }

    /** Each handler's JVMs get its function's JIT flags from the template, as Lambda gives them. */
    @Test
    void eachHandlerRunsWithItsFunctionsJavaToolOptions() {
        assertThat(ColdStart.HANDLERS).extracting(ColdStart.HandlerSpec::javaToolOptions).containsExactly(
                "-XX:+TieredCompilation -XX:TieredStopAtLevel=1", "-XX:+TieredCompilation -XX:TieredStopAtLevel=4",
                "-XX:+TieredCompilation -XX:TieredStopAtLevel=4");
        assertThat(ColdStart.summarize(ColdStart.HANDLERS.get(1), List.of(new ColdStartResults.Run(1, 1, 1, 1,
                "failures=0"))).javaToolOptions()).isEqualTo("-XX:+TieredCompilation -XX:TieredStopAtLevel=4");
    }

    @Test
    void putEventsStub_acceptsEveryEntry() throws Exception {
        String answer = ColdStart.putEventsResponse("{\"Entries\":[{\"Source\":\"io.tally\"},{\"Source\":\"io.tally\"}]}",
                json);
        assertThat(json.readTree(answer).path("FailedEntryCount").asInt()).isZero();
        assertThat(json.readTree(answer).path("Entries")).hasSize(2)
                .allSatisfy(entry -> assertThat(entry.path("EventId").asText()).isNotEmpty());
    }

    @Test
    void missingJars_areNamedWithTheCommandThatBuildsThem(@TempDir Path repo) throws Exception {
        assertThatThrownBy(() -> ColdStart.jars(repo))
                .hasMessageContaining("tally-writer.jar").hasMessageContaining("tally-stream-processor.jar")
                .hasMessageContaining("mvn -B -ntp package");
        for (String jar : List.of(ColdStart.WRITER_JAR, ColdStart.STREAM_JAR)) {
            Files.createDirectories(repo.resolve(jar).getParent());
            Files.write(repo.resolve(jar), new byte[] {1});
        }
        assertThat(ColdStart.jars(repo)).containsOnlyKeys(ColdStart.WRITER_JAR, ColdStart.STREAM_JAR);
    }

    @Test
    void harness_isOneClassFile_soThatItCanBeCopiedOutAlone() {
        assertThat(ColdStartHarness.class.getDeclaredClasses()).isEmpty();
        assertThat(ColdStartHarness.class.getResource("ColdStartHarness$1.class")).isNull();
    }

    @Test
    void harnessEvents_areRealisticFirstEvents() {
        var request = ColdStartHarness.createUser("3");
        assertThat(request.getRequestContext().getHttp().getMethod()).isEqualTo("POST");
        assertThat(request.getBody()).contains("\"userId\":\"user-cold-3\"");
        assertThat(request.getRequestContext().getAuthorizer().getJwt().getClaims())
                .as("the writer checks access: the authorizer's claims, the new user the subject")
                .containsEntry("sub", "user-cold-3").containsEntry("token_use", "access");
        var records = ColdStartHarness.records("windowed", "3");
        assertThat(records).hasSize(3).allSatisfy(record -> {
            assertThat(record.getEventName()).isEqualTo("INSERT");
            assertThat(record.getDynamodb().getNewImage()).containsKey("entityType");
        });
    }

    @Test
    void page_keepsTheReplayTables_andAddsTheColdStartSection_bothWaysRoundJson() throws Exception {
        ColdStartResults cold = sample();
        ColdStartResults reread = json.readValue(json.writeValueAsString(cold), ColdStartResults.class);
        assertThat(reread).isEqualTo(cold);

        String alone = Report.markdown(null, reread);
        assertThat(alone).startsWith("# Benchmarks").contains("## Packaging and cold start")
                .contains("`writer-service/target/tally-writer.jar`").contains("10.4 MiB (10,926,564 bytes)")
                .contains("| `io.tally.writer.WriterHandler` | POST /users").contains("| 1,200 (1,000–1,600) |")
                .contains("| `-XX:+TieredCompilation -XX:TieredStopAtLevel=1` |")
                .contains("| yes |").doesNotContain("## Replay");
    }

    static ColdStartResults sample() {
        ColdStart.HandlerSpec spec = ColdStart.HANDLERS.get(0);
        return new ColdStartResults(
                new ColdStartResults.Environment("2026-01-01T00:00:00Z", ColdStart.COMMAND, 2, "OpenJDK 17",
                        "Linux", "DynamoDB Local 3.3.1", 3),
                List.of(new ColdStartResults.Jar("writer", ColdStart.WRITER_JAR, 10_926_564,
                        List.of("io.tally.writer.WriterHandler"))),
                List.of(ColdStart.summarize(spec, List.of(
                        new ColdStartResults.Run(1000, 400, 10, 300, "status=201"),
                        new ColdStartResults.Run(1200, 500, 10, 300, "status=201"),
                        new ColdStartResults.Run(1600, 600, 10, 400, "status=201")))),
                ColdStart.TARGET_MS);
    }
}
