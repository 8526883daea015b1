package io.tally.bench;

import io.tally.domains.favs.FavWorkload;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.tally.bench.model.ModelResults;
import io.tally.core.ShardSettings;
import io.tally.core.template.DeploymentTemplate;
import io.tally.local.stream.EsmSettings;
import io.tally.stream.StreamWiring;
import io.tally.core.domain.DomainRegistry;
import io.tally.testkit.LocalDynamoDbServer;
import io.tally.testkit.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The benchmark: Tally's engine against a naive per-record processor on the same recorded stream, then the
 * end-to-end freshness lag at a steady write rate. Writes BENCHMARKS.md and a JSON copy of the figures.
 */
public final class Bench {
    private static final Logger LOG = LoggerFactory.getLogger(Bench.class);
    static final String COMMAND = "mvn -q -pl bench -am package -DskipTests && java -Xmx1g -jar bench/target/tally-bench.jar --records 20000";
    /** The deployment's batch size: the stream event's BatchSize in infra/template.yaml. */
    static final int BATCH_SIZE = DeploymentTemplate.bundled().streamEventSourceMapping().integer("BatchSize");
    static final int WRITER_THREADS = 4;
    /** The hot-song workload's Zipf skew over songs: the first two songs take about half of all downloads. */
    static final double HOT_SONG_SKEW = 1.3;
    /** The tag-heavy workload's Zipf skew over each user's tags, as the zipf workload's over users and posts. */
    static final double TAG_SKEW = 1.1;

    private Bench() {
    }

    public static void main(String[] args) throws IOException {
        BenchOptions options = BenchOptions.fromMain(args);
        if (options == null) {
            return;
        }
        // As the deployed stream function, before the first connection: idle connections kept for the calls in flight.
        StreamWiring.keepConnectionsAlive();
        if (options.render != null) {
            // Renders the page (and the freshness plot) again from a run's figures, e.g. after a change of the text.
            Results results = withFloors(new ObjectMapper().readValue(options.render.toFile(), Results.class),
                    options.floorJson);
            AwsLatencyResults aws = readAwsLatency(options.awsJson);
            if (aws != null) {
                FreshnessPlot.write(aws, options.awsPlot);
            }
            Files.writeString(options.markdown, Report.markdown(results, readColdStart(options.coldStartJson), aws,
                    readAwsModel(options.modelJson)));
            return;
        }
        if (options.coldStart) {
            coldStart(options);
            return;
        }
        if (options.load) {
            AloneModes.load(options);
            return;
        }
        if (options.writer) {
            AloneModes.writer(options);
            return;
        }
        if (options.awsModel) {
            AloneModes.awsModel(options);
            return;
        }
        if (options.awsLatency) {
            AloneModes.awsLatency(options);
            return;
        }
        if (options.floor) {
            AloneModes.floor(options);
            return;
        }
        // A fresh server per phase (ReplayRun.onFreshServer).
        if (options.warmUpRecords > 0) {
            ReplayRun.warmUp(options);
        }
        List<Results.WorkloadResult> workloads = new ArrayList<>();
        if (options.workloads.contains("uniform")) {
            workloads.add(ReplayRun.onFreshServer("uniform", 0.0, Workload.writes(options.seed, 0.0, options.records)));
        }
        if (options.workloads.contains("zipf")) {
            workloads.add(ReplayRun.onFreshServer("zipf", 1.1, Workload.writes(options.seed, 1.1, options.records)));
        }
        if (options.workloads.contains("hot-song")) {
            // Song downloads alone, most of them on a few hot songs: the hot keys coalescing is for.
            workloads.add(ReplayRun.onFreshServer("hot-song", HOT_SONG_SKEW,
                    Workload.writes(options.seed, HOT_SONG_SKEW, options.records, "songs")));
        }
        if (options.workloads.contains("tag-heavy")) {
            // Favourites alone, mostly links to a few hot tags of two users: per-tag counters in two stats items.
            workloads.add(ReplayRun.onFreshServer("tag-heavy", TAG_SKEW,
                    Workload.writes(options.seed, TAG_SKEW, options.records, FavWorkload::unlinkingFirst)));
        }
        Results.Freshness freshness = null;
        Results.Freshness largeBatchFreshness = null;
        if (options.freshnessSeconds > 0) {
            freshness = freshness(options, EsmSettings.defaults());
            largeBatchFreshness = freshness(options, LargeBatchReport.SETTINGS);
        }
        Results.Load load = null;
        if (options.loadSeconds > 0) {
            // Last: the runner starts its own DynamoDB Local, in memory, with nothing of the phases before.
            load = new LoadRun(options.loadConnections, Duration.ofSeconds(options.loadSeconds), options.seed).run();
        }
        Results.Writer writer = null;
        if (options.writerRequests > 0) {
            writer = new WriterRun(options.writerThreads, options.writerRequests, options.writerRounds).run();
        }
        AwsLatencyResults aws = readAwsLatency(options.awsJson);
        if (options.awsSeconds > 0) {
            aws = AwsLatencyRun.run(options);
            writeJson(options.awsJson, aws);
            FreshnessPlot.write(aws, options.awsPlot);
        }
        {
            Results results = new Results(environment(options), workloads, freshness, load, writer,
                    largeBatchFreshness);

            // The cold-start section comes from its own run (--cold-start) and stays on the page.
            String markdown = Report.markdown(results, readColdStart(options.coldStartJson), aws,
                    readAwsModel(options.modelJson));
            Files.writeString(options.markdown, markdown);
            writeJson(options.json, results);
            System.out.println(markdown);
            LOG.info("wrote {} and {}", options.markdown, options.json);
        }
        // DynamoDB Local leaves non-daemon threads behind.
        System.exit(0);
    }

    /**
     * The cold-start run: writes its JSON and renders the page with the replay figures of the last full run, when
     * there are some.
     */
    private static void coldStart(BenchOptions options) throws IOException {
        ColdStartResults results;
        try {
            results = ColdStart.run(options.repo, options.runs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        writeJson(options.coldStartJson, results);
        Results replay = Files.isRegularFile(options.json)
                ? new ObjectMapper().readValue(options.json.toFile(), Results.class) : null;
        Files.writeString(options.markdown, Report.markdown(replay, results, readAwsLatency(options.awsJson),
                readAwsModel(options.modelJson)));
        System.out.println(Report.coldStartSection(results));
        LOG.info("wrote {} and {}", options.markdown, options.coldStartJson);
        // DynamoDB Local leaves non-daemon threads behind.
        System.exit(0);
    }

    /** Writes a run's figures as indented JSON, creating the directory. */
    static void writeJson(Path file, Object figures) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), figures);
    }

    /** The page again, from the JSON of the last full run, cold-start run and AWS-latency run (any may be missing). */
    static void renderPage(BenchOptions options) throws IOException {
        Results replay = Files.isRegularFile(options.json)
                ? withFloors(new ObjectMapper().readValue(options.json.toFile(), Results.class), options.floorJson)
                : null;
        Files.writeString(options.markdown, Report.markdown(replay, readColdStart(options.coldStartJson),
                readAwsLatency(options.awsJson), readAwsModel(options.modelJson)));
    }

    /**
     * The run's workloads with the floor of the last {@code --floor} run ({@code floorJson}) where the run measured
     * none: a full run written before the floor was measured keeps its figures, and gains the floor section.
     */
    static Results withFloors(Results results, Path floorJson) throws IOException {
        if (!Files.isRegularFile(floorJson)) {
            return results;
        }
        List<Results.WorkloadResult> floors = List.of(new ObjectMapper().readValue(floorJson.toFile(),
                Results.WorkloadResult[].class));
        List<Results.WorkloadResult> workloads = new ArrayList<>();
        for (Results.WorkloadResult w : results.workloads()) {
            Results.Floor floor = w.floor() != null ? w.floor() : floors.stream()
                    .filter(f -> f.name().equals(w.name())).map(Results.WorkloadResult::floor).findFirst().orElse(null);
            workloads.add(new Results.WorkloadResult(w.name(), w.skew(), w.baseWrites(), w.baseWriteThreads(),
                    w.baseWritesPerSec(), w.records(), w.shards(), w.getRecordsPerSec(), w.baseItems(), w.tally(),
                    w.naive(), w.tallyLargeBatch(), floor));
        }
        return new Results(results.environment(), workloads, results.freshness(), results.load(), results.writer(),
                results.largeBatchFreshness());
    }

    private static AwsLatencyResults readAwsLatency(Path json) throws IOException {
        return Files.isRegularFile(json) ? new ObjectMapper().readValue(json.toFile(), AwsLatencyResults.class) : null;
    }

    private static ModelResults readAwsModel(Path json) throws IOException {
        return Files.isRegularFile(json) ? new ObjectMapper().readValue(json.toFile(), ModelResults.class) : null;
    }

    private static ColdStartResults readColdStart(Path json) throws IOException {
        return Files.isRegularFile(json) ? new ObjectMapper().readValue(json.toFile(), ColdStartResults.class) : null;
    }

    private static Results.Environment environment(BenchOptions options) {
        Runtime runtime = Runtime.getRuntime();
        return new Results.Environment(
                ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME),
                COMMAND.replace("--records 20000", "--records " + options.records),
                runtime.availableProcessors(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                runtime.maxMemory() / (1024 * 1024),
                "DynamoDB Local " + dynamoDbLocalVersion() + ", server mode over HTTP, in memory",
                options.records, options.seed, BATCH_SIZE, options.warmUpRecords);
    }

    static String dynamoDbLocalVersion() {
        try (var in = Bench.class.getResourceAsStream("/bench.properties")) {
            java.util.Properties properties = new java.util.Properties();
            if (in != null) {
                properties.load(in);
            }
            return properties.getProperty("dynamodbLocal", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** On a server of its own, for the reason {@link ReplayRun#onFreshServer} gives. */
    private static Results.Freshness freshness(BenchOptions options, EsmSettings settings) {
        try (LocalDynamoDbServer server = LocalDynamoDbServer.start()) {
            return new FreshnessRun(server, server.client(), DomainRegistry.load().derivations(ShardSettings.DEFAULTS))
                    .run(options, settings);
        }
    }
}
