package io.tally.bench;

import io.tally.core.workload.Write;
import io.tally.bench.model.FrontierPlot;
import io.tally.bench.model.ModelPlans;
import io.tally.bench.model.ModelReport;
import io.tally.bench.model.ModelResults;
import io.tally.bench.model.ModelRun;
import io.tally.domains.favs.FavWorkload;
import io.tally.stream.StreamRecords;
import io.tally.stream.engine.SourceRecord;
import io.tally.testkit.LocalDynamoDbServer;
import io.tally.testkit.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * The modes that also run alone ({@code --load}, {@code --writer}, {@code --floor}, {@code --aws-latency}): their
 * section on stdout, their own JSON.
 */
final class AloneModes {
    private static final Logger LOG = LoggerFactory.getLogger(AloneModes.class);

    private AloneModes() {
    }

    /**
     * The load mode alone: prints its section, writes its JSON, leaves BENCHMARKS.md as it is; exits 1 if a check
     * failed (an unexpected answer, a missing acknowledged write, derived data not exact).
     */
    static void load(BenchOptions options) throws IOException {
        Results.Load load = new LoadRun(options.loadConnections, Duration.ofSeconds(options.loadSeconds), options.seed)
                .run();
        Bench.writeJson(options.loadJson, load);
        System.out.println(LoadReport.loadSection(load));
        LOG.info("wrote {}; checks {}", options.loadJson, load.passed() ? "passed" : "FAILED");
        // DynamoDB Local leaves non-daemon threads behind.
        System.exit(load.passed() ? 0 : 1);
    }

    /**
     * The floor alone: Tally's write units against the floor ({@link FloorRun}) for the chosen workloads, without the
     * measured replays; prints its section and its targets, writes its JSON, leaves BENCHMARKS.md as it is.
     */
    static void floor(BenchOptions options) throws IOException {
        List<Results.WorkloadResult> workloads = new ArrayList<>();
        for (String name : List.of("uniform", "zipf", "hot-song", "tag-heavy")) {
            if (!options.workloads.contains(name)) {
                continue;
            }
            double skew = switch (name) {
                case "uniform" -> 0.0;
                case "zipf" -> 1.1;
                case "hot-song" -> Bench.HOT_SONG_SKEW;
                default -> Bench.TAG_SKEW;
            };
            // The same writes as the full run's workloads (Bench.main).
            List<Write> writes = switch (name) {
                case "hot-song" -> Workload.writes(options.seed, skew, options.records, "songs");
                case "tag-heavy" -> Workload.writes(options.seed, skew, options.records, FavWorkload::unlinkingFirst);
                default -> Workload.writes(options.seed, skew, options.records);
            };
            workloads.add(FloorRun.alone(name, skew, writes));
        }
        Bench.writeJson(options.floorJson, workloads);
        System.out.println(FloorReport.section(workloads));
        for (Results.WorkloadResult workload : workloads) {
            for (Report.Target target : FloorReport.targets(workload)) {
                System.out.println(target.description() + ": " + target.measured()
                        + (target.met() ? " (met)" : " (not met)"));
            }
        }
        FloorReport.summaries(workloads).forEach(line -> LOG.info("floor: {}", line));
        LOG.info("wrote {}", options.floorJson);
        // DynamoDB Local leaves non-daemon threads behind.
        System.exit(0);
    }

    /** The writer mode alone: prints its section, writes its JSON, leaves BENCHMARKS.md as it is. */
    static void writer(BenchOptions options) throws IOException {
        Results.Writer writer = new WriterRun(options.writerThreads, options.writerRequests, options.writerRounds).run();
        Bench.writeJson(options.writerJson, writer);
        System.out.println(WriterReport.section(writer));
        Report.Target target = WriterReport.target(writer);
        System.out.println(target.description() + ": " + target.measured() + (target.met() ? " (met)" : " (not met)"));
        LOG.info("wrote {}", options.writerJson);
        // DynamoDB Local leaves non-daemon threads behind.
        System.exit(0);
    }

    /**
     * The AWS-latency mode alone: writes its JSON and its plot, prints its section, and renders BENCHMARKS.md again
     * with it and the figures of the last full run (as the cold-start mode does).
     */
    static void awsLatency(BenchOptions options) throws IOException {
        AwsLatencyResults results = AwsLatencyRun.run(options);
        Bench.writeJson(options.awsJson, results);
        FreshnessPlot.write(results, options.awsPlot);
        System.out.println(AwsLatencyReport.section(results));
        Bench.renderPage(options);
        LOG.info("wrote {}, {} and {}", options.awsJson, options.awsPlot, options.markdown);
        // DynamoDB Local leaves non-daemon threads behind.
        System.exit(0);
    }

    /**
     * The CPU-confined model alone: writes its figures, its plot and its section beside them ({@code aws-model.md});
     * BENCHMARKS.md stays as it is.
     */
    /** The floor of the model's records ({@link FloorRun}: the floor mode's replay, as one shard). */
    private static double modelFloor(LocalDynamoDbServer server, List<Record> records, int batchSize, int skip) {
        String shardId = "model";
        List<SourceRecord> shard = records.stream().map(record -> StreamRecords.fromSdk(shardId, record)).toList();
        Results.Floor floor = FloorRun.run(server, "model", Map.of(shardId, shard), batchSize, skip);
        return floor.byType().stream().mapToDouble(Results.FloorShare::floorUnits).sum() / floor.records();
    }

    static void awsModel(BenchOptions options) throws IOException {
        Path logs = Files.createDirectories(options.modelJson.toAbsolutePath().getParent().resolve("aws-model-logs"));
        ModelResults results = ModelRun.run(new ModelRun.Settings(options.modelScale, options.seed,
                options.modelSeconds, ModelPlans.plans(options.modelShares, options.modelRepeats, options.modelWindows,
                        options.modelMemories, options.modelTuningRepeats),
                options.modelPutEvents, options.modelWarmUp, logs, AloneModes::modelFloor));
        Bench.writeJson(options.modelJson, results);
        FrontierPlot.write(results, options.modelPlot);
        String section = ModelReport.section(results);
        System.out.println(section);
        Path markdown = options.modelJson.resolveSibling("aws-model.md");
        Files.writeString(markdown, section);
        Bench.renderPage(options);
        LOG.info("wrote {}, {}, {} and {}", options.modelJson, markdown, options.modelPlot, options.markdown);
        System.exit(0);
    }
}
