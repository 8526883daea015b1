package io.tally.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.bench.LoadTally.Outcome;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The load mode's bookkeeping: what an answer counts as, and how the connections' figures add up. */
class LoadLogicTest {
    @Test
    void classify_onlyA503WithRetryAfterIsShed_everyOtherNon2xxIsUnexpected() {
        assertThat(LoadTally.classify(200, false)).isEqualTo(Outcome.OK);
        assertThat(LoadTally.classify(201, false)).isEqualTo(Outcome.OK);
        assertThat(LoadTally.classify(503, true)).isEqualTo(Outcome.SHED);
        assertThat(LoadTally.classify(503, false)).isEqualTo(Outcome.UNEXPECTED);
        assertThat(LoadTally.classify(500, true)).isEqualTo(Outcome.UNEXPECTED);
        assertThat(LoadTally.classify(502, false)).isEqualTo(Outcome.UNEXPECTED);
        assertThat(LoadTally.classify(404, false)).isEqualTo(Outcome.UNEXPECTED);
        assertThat(LoadTally.classify(409, false)).isEqualTo(Outcome.UNEXPECTED);
        assertThat(LoadTally.classify(0, false)).isEqualTo(Outcome.UNEXPECTED);
    }

    @Test
    void merge_addsUpTheConnections() {
        LoadTally a = new LoadTally();
        a.record(true, 10, Outcome.OK, "POST a");
        a.record(false, 2, Outcome.OK, "GET a");
        a.record(true, 30, Outcome.SHED, "POST b");
        LoadTally b = new LoadTally();
        b.record(false, 4, Outcome.UNEXPECTED, "GET b: 500");
        b.record(true, 20, Outcome.OK, "PUT c");

        LoadTally all = LoadTally.merge(List.of(a, b));

        assertThat(all.requests).isEqualTo(5);
        assertThat(all.writesAcknowledged).isEqualTo(2);
        assertThat(all.readsOk).isEqualTo(1);
        assertThat(all.shed).isEqualTo(1);
        assertThat(all.unexpected).containsExactly("GET b: 500");
        assertThat(all.latenciesMs).containsExactlyInAnyOrder(10.0, 2.0, 30.0, 4.0, 20.0);
        assertThat(all.writeLatenciesMs).containsExactlyInAnyOrder(10.0, 30.0, 20.0);
        assertThat(all.readLatenciesMs).containsExactlyInAnyOrder(2.0, 4.0);
        assertThat(Report.percentile(all.latenciesMs, 50)).isEqualTo(10.0);
    }

    @Test
    void report_aRunWithALoad_hasTheLoadSectionAndItsTarget() {
        Results.Load load = new Results.Load(64, 60.2, 6000, 99.7, 2700, 3300, 5, 0, List.of(), 40, 400, 900, 50, 450,
                30, 300, 512, 2.5, 900, 1200, 600, 0, List.of(), true, 0);
        Results results = new Results(new Results.Environment("2026-01-01T00:00:00Z", "cmd", 2, "jvm", "os", 1024,
                "DynamoDB Local", 20000, 42, 1000, 0), List.of(), null, load, null);

        String markdown = Report.markdown(results);

        assertThat(markdown).contains("## Load", "| 64 | 60.2 | 6000 | 100 | 2700 | 3300 | 5 | 0 | 40 | 400 | 900 |");
        assertThat(Report.targets(results)).anySatisfy(target -> {
            assertThat(target.description()).startsWith("Load (64 connections)");
            assertThat(target.met()).isTrue();
        });
        Results.Load lost = new Results.Load(64, 60.2, 6000, 99.7, 2700, 3300, 5, 0, List.of(), 40, 400, 900, 50, 450,
                30, 300, 512, 2.5, 900, 1200, 600, 1, List.of("/items/x (404)"), true, 0);
        assertThat(lost.passed()).isFalse();
        assertThat(LoadReport.loadSection(lost)).contains("Missing acknowledged writes (first 1)", "/items/x (404)");
    }
}
