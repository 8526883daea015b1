package io.tally.bench;

import io.tally.bench.model.ModelRun;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The benchmark's command line ({@code tally-bench}), parsed by picocli: {@code --help} lists every option with its
 * default, and an unknown option or a missing value is a usage error with its name.
 */
@Command(name = "tally-bench", sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Measures Tally side by side with a naive stream processor on DynamoDB Local: replays of the seed "
                    + "domains' workloads (write units, derived writes, time per record), freshness, and the modes "
                    + "below; writes BENCHMARKS.md and the JSON of each run. Without a mode it runs the full "
                    + "benchmark; a mode runs alone and leaves BENCHMARKS.md untouched (except --aws-latency, which "
                    + "renders the page again with its figures).",
            ""},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"  0:done (or --help)", "  1:an unexpected failure", "  2:a usage error"})
final class BenchOptions {
    /** The replay workloads to run (all by default); fewer for a quick look while iterating. */
    static final Set<String> WORKLOADS = Set.of("uniform", "zipf", "hot-song", "tag-heavy");

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    @Option(names = "--records", paramLabel = "N", description = "records each replay workload writes (default: "
            + "${DEFAULT-VALUE})")
    int records = 20_000;

    @Option(names = "--warm-up", paramLabel = "N", description = "records replayed by both processors before the "
            + "measured workloads, not reported; 0 leaves the warm-up out (default: ${DEFAULT-VALUE})")
    int warmUpRecords = 10_000;

    @Option(names = "--freshness-seconds", paramLabel = "S", description = "how long the freshness run writes "
            + "(default: ${DEFAULT-VALUE})")
    int freshnessSeconds = 25;

    @Option(names = "--seed", paramLabel = "N", description = "the workloads' random seed (default: ${DEFAULT-VALUE})")
    long seed = 42;

    @Option(names = "--markdown", paramLabel = "FILE", description = "the results page (default: ${DEFAULT-VALUE})")
    Path markdown = Path.of("BENCHMARKS.md");

    @Option(names = "--json", paramLabel = "FILE", description = "the full run's figures (default: ${DEFAULT-VALUE})")
    Path json = Path.of("bench/results/latest.json");

    @Option(names = "--render", paramLabel = "JSON", description = "only render the page again from a run's figures "
            + "(after a change of its text)")
    Path render;

    @Option(names = "--workloads", paramLabel = "LIST", split = ",", description = "the replay workloads, "
            + "comma-separated, of uniform, zipf, hot-song and tag-heavy (default: all)")
    Set<String> workloads = WORKLOADS;

    @Option(names = "--cold-start", description = "mode: cold starts of the packaged functions, in fresh JVMs")
    boolean coldStart;

    @Option(names = "--runs", paramLabel = "N", description = "cold starts measured per function (default: "
            + "${DEFAULT-VALUE})")
    int runs = 5;

    @Option(names = "--cold-start-json", paramLabel = "FILE", description = "the cold-start mode's figures (default: "
            + "${DEFAULT-VALUE})")
    Path coldStartJson = Path.of("bench/results/cold-start.json");

    @Option(names = "--repo", paramLabel = "DIR", description = "the checkout whose packaged jars the cold-start "
            + "mode runs (default: ${DEFAULT-VALUE})")
    Path repo = Path.of(".");

    @Option(names = "--load", description = "mode: the local runner under HTTP load, writes and reads")
    boolean load;

    @Option(names = "--load-seconds", paramLabel = "S", description = "the load mode's duration; 0 leaves it out of "
            + "the full run (default: ${DEFAULT-VALUE})")
    int loadSeconds = 60;

    @Option(names = "--load-connections", paramLabel = "N", description = "the load mode's concurrent connections "
            + "(default: ${DEFAULT-VALUE})")
    int loadConnections = 64;

    @Option(names = "--load-json", paramLabel = "FILE", description = "the load mode's figures (default: "
            + "${DEFAULT-VALUE})")
    Path loadJson = Path.of("bench/results/load.json");

    @Option(names = "--writer", description = "mode: the writer function's requests, in process")
    boolean writer;

    @Option(names = "--writer-requests", paramLabel = "N", description = "the writer mode's requests per client "
            + "thread and round; 0 leaves it out of the full run (default: ${DEFAULT-VALUE})")
    int writerRequests = 150;

    @Option(names = "--writer-rounds", paramLabel = "N", description = "the writer mode's rounds (default: "
            + "${DEFAULT-VALUE})")
    int writerRounds = 3;

    @Option(names = "--writer-threads", paramLabel = "N", description = "the writer mode's client threads (default: "
            + "${DEFAULT-VALUE})")
    int writerThreads = 8;

    @Option(names = "--writer-json", paramLabel = "FILE", description = "the writer mode's figures (default: "
            + "${DEFAULT-VALUE})")
    Path writerJson = Path.of("bench/results/writer.json");

    @Option(names = "--floor", description = "mode: the write-unit floor of the chosen workloads")
    boolean floor;

    @Option(names = "--floor-json", paramLabel = "FILE", description = "the floor mode's figures (default: "
            + "${DEFAULT-VALUE})")
    Path floorJson = Path.of("bench/results/floor.json");

    @Option(names = "--aws-latency", description = "mode: the stream processor under AWS's modelled latencies, "
            + "freshness against rate")
    boolean awsLatency;

    @Option(names = "--aws-seconds", paramLabel = "S", description = "how long records arrive in each steady-rate "
            + "run; 0 leaves the mode out of the full run (default: ${DEFAULT-VALUE})")
    int awsSeconds = 4;

    @Option(names = "--aws-json", paramLabel = "FILE", description = "the AWS-latency mode's figures (default: "
            + "${DEFAULT-VALUE})")
    Path awsJson = Path.of("bench/results/aws-latency.json");

    @Option(names = "--aws-plot", paramLabel = "FILE", description = "the freshness-against-rate plot (default: "
            + "${DEFAULT-VALUE})")
    Path awsPlot = Path.of("bench/results/aws-freshness.png");

    @Option(names = "--aws-processors", paramLabel = "LIST", split = ",", description = "tally, naive or both, "
            + "comma-separated (default: both)")
    List<String> awsProcessors = List.of("tally", "naive");

    @Option(names = "--aws-shares", paramLabel = "LIST", split = ",", converter = Share.class,
            description = "shares of a partition's write limit, from 0 (a backlog) to 5, comma-separated (default: "
                    + "0 to 1.2)")
    List<Double> awsShares = AwsLatencyRun.SHARES;

    @Option(names = "--aws-time-scale", paramLabel = "K", description = "how many times slower time runs, so that "
            + "DynamoDB Local keeps within the model, from 1 to 100 (default: ${DEFAULT-VALUE})")
    double awsTimeScale = 5;

    @Option(names = "--aws-model", description = "mode: the CPU-confined model of the deployed stream function "
            + "(needs a writable cgroup CPU controller: root)")
    boolean awsModel;

    @Option(names = "--model-seconds", paramLabel = "S", description = "how long records arrive in each steady-rate "
            + "run of the model (default: ${DEFAULT-VALUE})")
    int modelSeconds = 30;

    @Option(names = "--model-repeats", paramLabel = "N", description = "repeats of each rate at the default memory "
            + "(default: ${DEFAULT-VALUE})")
    int modelRepeats = 5;

    @Option(names = "--model-shares", paramLabel = "LIST", split = ",", converter = Share.class, description = "shares "
            + "of a partition's write limit for the rates, 0 a backlog (default: 0,0.1,0.5,0.8,1)")
    List<Double> modelShares = List.of(0.0, 0.1, 0.5, 0.8, 1.0);

    @Option(names = "--model-windows", paramLabel = "LIST", split = ",", converter = Share.class, description = "the "
            + "cost frontier's batching windows in seconds besides the template's, at 10, 50 and 80%% of a partition; "
            + "none: --model-windows= (default: 0.5,1,5)")
    List<Double> modelWindows = List.of(0.5, 1.0, 5.0);

    @Option(names = "--model-memories", paramLabel = "LIST", split = ",", converter = Memory.class, description = "memory sizes (MB) the "
            + "tuning runs compare, each with C1 only and full tiering; none: --model-memories= (default: "
            + "512,1024,1769,3008)")
    List<Integer> modelMemories = List.of(512, 1024, 1769, 3008);

    @Option(names = "--model-tuning-repeats", paramLabel = "N", description = "repeats of each tuning run "
            + "(default: ${DEFAULT-VALUE})")
    int modelTuningRepeats = 2;

    /**
     * 3: side by side (1,024 MB, a backlog and 80%), scales 5, 3 and 2 gave 477, 536 and 527 records/s and 510, 539
     * and 525, all exact, within the run-to-run spread; 3 leaves DynamoDB Local more room than 2 at the larger memory
     * sizes and takes three fifths of 5's time.
     */
    @Option(names = "--model-scale", paramLabel = "K", description = "how many times slower time runs in the model "
            + "(default: ${DEFAULT-VALUE})")
    double modelScale = 3;

    @Option(names = "--model-put-events", paramLabel = "N", description = "PutEvents calls a second the shard's "
            + "function may make: its share of the account's quota (default: ${DEFAULT-VALUE}, 2,400 a second over "
            + "10 shards)")
    double modelPutEvents = 240;

    @Option(names = "--model-warm-up", paramLabel = "N", description = "records each run's function processes before "
            + "its CPU quota, unreported: the first " + ModelRun.WARM_UP + " in batches of 5, the rest in full batches, "
            + "its modelled waits gone (default: ${DEFAULT-VALUE})")
    int modelWarmUp = ModelRun.STEADY_WARM_UP;

    @Option(names = "--model-json", paramLabel = "FILE", description = "the model's figures (default: "
            + "${DEFAULT-VALUE})")
    Path modelJson = Path.of("bench/results/aws-model.json");

    @Option(names = "--model-plot", paramLabel = "FILE", description = "the cost frontier plot (default: "
            + "${DEFAULT-VALUE})")
    Path modelPlot = Path.of("bench/results/aws-frontier.png");

    /** A memory size in MB; blank for none ("--model-memories="). */
    static final class Memory implements CommandLine.ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            if (value.isBlank()) {
                return null;
            }
            try {
                return Integer.valueOf(value.trim());
            } catch (NumberFormatException e) {
                throw new CommandLine.TypeConversionException("--model-memories takes whole numbers of MB,"
                        + " comma-separated: " + value);
            }
        }
    }

    /** A share of the partition's limit, spaces allowed around it. */
    static final class Share implements CommandLine.ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            if (value.isBlank()) {
                // "--model-windows=": an empty list.
                return Double.NaN;
            }
            try {
                return Double.valueOf(value.trim());
            } catch (NumberFormatException e) {
                throw new CommandLine.TypeConversionException("--aws-shares takes numbers, comma-separated: " + value);
            }
        }
    }

    /**
     * The options of a command line, checked (not when it asks for {@code --help}).
     *
     * @throws CommandLine.ParameterException for an unknown option, a missing or malformed value, or a value out of
     *                                        its range, naming the option
     */
    static BenchOptions parse(String[] args) {
        BenchOptions options = new BenchOptions();
        CommandLine commandLine = new CommandLine(options);
        commandLine.parseArgs(args);
        if (!options.help) {
            try {
                options.check();
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(commandLine, e.getMessage(), e);
            }
        }
        return options;
    }

    /**
     * The options to run with, from {@code main}'s arguments; null when there is nothing to run: {@code --help} printed
     * the usage. A usage error is printed with where to look, and the JVM exits with status 2.
     */
    static BenchOptions fromMain(String[] args) {
        BenchOptions options;
        try {
            options = parse(args);
        } catch (CommandLine.ParameterException e) {
            System.err.println("tally-bench: " + e.getMessage());
            System.err.println("Try 'java -jar bench/target/tally-bench.jar --help' for the options.");
            System.exit(2);
            return null;
        }
        if (options.help) {
            new CommandLine(options).usage(System.out);
            return null;
        }
        return options;
    }

    private void check() {
        if (runs < 1) {
            throw new IllegalArgumentException("--runs must be positive");
        }
        if (loadSeconds < 0 || (load && loadSeconds < 1)) {
            throw new IllegalArgumentException("--load-seconds must be positive (0 leaves the load out of a full run)");
        }
        if (writerRequests < 0 || writerRequests == 1 || (writer && writerRequests == 0)) {
            throw new IllegalArgumentException("--writer-requests must be at least 2 (0 leaves the writer mode out of"
                    + " a full run)");
        }
        if (writerRounds < 1 || writerThreads < 1) {
            throw new IllegalArgumentException("--writer-rounds and --writer-threads must be positive");
        }
        if (loadConnections < 1) {
            throw new IllegalArgumentException("--load-connections must be positive");
        }
        Set<String> unknown = new TreeSet<>(workloads);
        unknown.removeAll(WORKLOADS);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("--workloads takes a comma-separated list of uniform, zipf, hot-song"
                    + " and tag-heavy; unknown: " + String.join(",", unknown));
        }
        if (warmUpRecords < 0) {
            throw new IllegalArgumentException("--warm-up must not be negative (0 leaves the warm-up out)");
        }
        if (awsSeconds < 0 || (awsLatency && awsSeconds < 1)) {
            throw new IllegalArgumentException("--aws-seconds must be positive (0 leaves the AWS-latency mode out of a"
                    + " full run)");
        }
        if (awsProcessors.isEmpty() || !Set.of("tally", "naive").containsAll(awsProcessors)) {
            throw new IllegalArgumentException("--aws-processors takes tally, naive or both, comma-separated");
        }
        if (awsShares.isEmpty() || awsShares.stream().anyMatch(share -> !(share >= 0 && share <= 5))) {
            throw new IllegalArgumentException("--aws-shares takes shares of a partition's write limit from 0 (a"
                    + " backlog) to 5, comma-separated");
        }
        if (!(awsTimeScale >= 1 && awsTimeScale <= 100)) {
            throw new IllegalArgumentException("--aws-time-scale takes a factor from 1 (real time) to 100");
        }
        awsShares = awsShares.stream().filter(share -> !share.isNaN()).toList();
        modelShares = modelShares.stream().filter(share -> !share.isNaN()).toList();
        modelWindows = modelWindows.stream().filter(window -> !window.isNaN()).toList();
        modelMemories = modelMemories.stream().filter(java.util.Objects::nonNull).toList();
        if (modelSeconds < 1 || modelRepeats < 1 || modelTuningRepeats < 1) {
            throw new IllegalArgumentException("--model-seconds, --model-repeats and --model-tuning-repeats must be"
                    + " positive");
        }
        if (modelShares.stream().anyMatch(share -> !(share >= 0 && share <= 5))
                || modelWindows.stream().anyMatch(window -> !(window > 0 && window <= 300))) {
            throw new IllegalArgumentException("--model-shares takes shares from 0 (a backlog) to 5, --model-windows"
                    + " batching windows from above 0 to 300 seconds");
        }
        if (modelMemories.stream().anyMatch(memory -> memory < 128 || memory > 10_240)) {
            throw new IllegalArgumentException("--model-memories takes Lambda memory sizes, 128 to 10240 MB");
        }
        if (modelWarmUp < ModelRun.WARM_UP) {
            throw new IllegalArgumentException("--model-warm-up takes at least " + ModelRun.WARM_UP + " records");
        }
        if (!(modelScale >= 1 && modelScale <= 100) || !(modelPutEvents >= 0)) {
            throw new IllegalArgumentException("--model-scale takes a factor from 1 to 100, --model-put-events a rate"
                    + " of 0 (no quota) or more");
        }
        if (records < 1) {
            throw new IllegalArgumentException("--records must be positive");
        }
    }
}
