package io.tally.bench;

import java.nio.file.Path;

/** The benchmark's command line. */
final class BenchOptions {
    int records = 20_000;
    int freshnessSeconds = 25;
    /** Records replayed by both processors before the measured workloads, not reported (0: none). */
    int warmUpRecords = 10_000;
    long seed = 42;
    Path markdown = Path.of("BENCHMARKS.md");
    Path json = Path.of("bench/results/latest.json");
    Path render;
    boolean coldStart;
    int runs = 5;
    Path coldStartJson = Path.of("bench/results/cold-start.json");
    Path repo = Path.of(".");
    /** The replay workloads to run (all by default); fewer for a quick look while iterating. */
    static final java.util.Set<String> WORKLOADS = java.util.Set.of("uniform", "zipf", "hot-song", "tag-heavy");
    java.util.Set<String> workloads = WORKLOADS;
    /** Only the load mode: its section on stdout and its JSON, BENCHMARKS.md untouched. */
    boolean load;
    /** The load mode's duration in the full run and alone; 0 leaves it out of the full run. */
    int loadSeconds = 60;
    int loadConnections = 64;
    Path loadJson = Path.of("bench/results/load.json");
    /** Only the writer mode: its section on stdout and its JSON, BENCHMARKS.md untouched. */
    boolean writer;
    /** The writer mode's requests per client thread and round; 0 leaves it out of the full run. */
    int writerRequests = 150;
    int writerRounds = 3;
    int writerThreads = 8;
    Path writerJson = Path.of("bench/results/writer.json");
    /** Only the AWS-latency mode: its JSON, its plot, and the page rendered again with them. */
    boolean awsLatency;
    /** How long records arrive in each of the AWS-latency mode's steady-rate runs; 0 leaves it out of the full run. */
    int awsSeconds = 4;
    Path awsJson = Path.of("bench/results/aws-latency.json");
    /** The freshness-against-rate plot; BENCHMARKS.md shows it from here. */
    Path awsPlot = Path.of("bench/results/aws-freshness.png");
    /** The AWS-latency mode's processors and shares of the partition's limit (0: a backlog); fewer for a quick look. */
    java.util.List<String> awsProcessors = java.util.List.of("tally", "naive");
    java.util.List<Double> awsShares = AwsLatencyRun.SHARES;
    /** How many times slower time runs in the AWS-latency mode, so that DynamoDB Local keeps within the model. */
    double awsTimeScale = 5;
    /** Only the floor of the chosen workloads ({@link FloorRun}): its section on stdout and its JSON. */
    boolean floor;
    Path floorJson = Path.of("bench/results/floor.json");

    static BenchOptions parse(String[] args) {
        BenchOptions options = new BenchOptions();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--cold-start" -> options.coldStart = true;
                case "--load" -> options.load = true;
                case "--writer" -> options.writer = true;
                case "--aws-latency" -> options.awsLatency = true;
                case "--floor" -> options.floor = true;
                default -> options.set(args[i], i + 1 < args.length ? args[++i] : null);
            }
        }
        if (options.runs < 1) {
            throw new IllegalArgumentException("--runs must be positive");
        }
        if (options.loadSeconds < 0 || (options.load && options.loadSeconds < 1)) {
            throw new IllegalArgumentException("--load-seconds must be positive (0 leaves the load out of a full run)");
        }
        if (options.writerRequests < 0 || options.writerRequests == 1 || (options.writer && options.writerRequests == 0)) {
            throw new IllegalArgumentException("--writer-requests must be at least 2 (0 leaves the writer mode out of"
                    + " a full run)");
        }
        if (options.writerRounds < 1 || options.writerThreads < 1) {
            throw new IllegalArgumentException("--writer-rounds and --writer-threads must be positive");
        }
        if (options.loadConnections < 1) {
            throw new IllegalArgumentException("--load-connections must be positive");
        }
        java.util.Set<String> unknown = new java.util.TreeSet<>(options.workloads);
        unknown.removeAll(WORKLOADS);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("--workloads takes a comma-separated list of uniform, zipf, hot-song"
                    + " and tag-heavy; unknown: " + String.join(",", unknown));
        }
        if (options.warmUpRecords < 0) {
            throw new IllegalArgumentException("--warm-up must not be negative (0 leaves the warm-up out)");
        }
        if (options.awsSeconds < 0 || (options.awsLatency && options.awsSeconds < 1)) {
            throw new IllegalArgumentException("--aws-seconds must be positive (0 leaves the AWS-latency mode out of a"
                    + " full run)");
        }
        if (options.awsProcessors.isEmpty() || !java.util.Set.of("tally", "naive").containsAll(options.awsProcessors)) {
            throw new IllegalArgumentException("--aws-processors takes tally, naive or both, comma-separated");
        }
        if (options.awsShares.isEmpty() || options.awsShares.stream().anyMatch(share -> !(share >= 0 && share <= 5))) {
            throw new IllegalArgumentException("--aws-shares takes shares of a partition's write limit from 0 (a"
                    + " backlog) to 5, comma-separated");
        }
        if (!(options.awsTimeScale >= 1 && options.awsTimeScale <= 100)) {
            throw new IllegalArgumentException("--aws-time-scale takes a factor from 1 (real time) to 100");
        }
        if (options.records < 1) {
            throw new IllegalArgumentException("--records must be positive");
        }
        return options;
    }

    /** Sets an option that takes a value; {@code value} is null when the command line ends after the option. */
    private void set(String option, String value) {
        switch (option) {
            case "--records" -> records = whole(option, value);
            case "--freshness-seconds" -> freshnessSeconds = whole(option, value);
            case "--warm-up" -> warmUpRecords = whole(option, value);
            case "--seed" -> seed = Long.parseLong(require(option, value));
            case "--markdown" -> markdown = path(option, value);
            case "--json" -> json = path(option, value);
            case "--render" -> render = path(option, value);
            case "--writer-requests" -> writerRequests = whole(option, value);
            case "--writer-rounds" -> writerRounds = whole(option, value);
            case "--writer-json" -> writerJson = path(option, value);
            case "--floor-json" -> floorJson = path(option, value);
            case "--writer-threads" -> writerThreads = whole(option, value);
            case "--load-seconds" -> loadSeconds = whole(option, value);
            case "--load-connections" -> loadConnections = whole(option, value);
            case "--load-json" -> loadJson = path(option, value);
            case "--runs" -> runs = whole(option, value);
            case "--cold-start-json" -> coldStartJson = path(option, value);
            case "--repo" -> repo = path(option, value);
            case "--aws-seconds" -> awsSeconds = whole(option, value);
            case "--aws-json" -> awsJson = path(option, value);
            case "--aws-plot" -> awsPlot = path(option, value);
            case "--aws-processors" -> awsProcessors = java.util.List.of(require(option, value).split(","));
            case "--aws-shares" -> awsShares = shares(require(option, value));
            case "--aws-time-scale" -> awsTimeScale = Double.parseDouble(require(option, value));
            case "--workloads" -> workloads = java.util.Set.of(require(option, value).split(","));
            default -> throw new IllegalArgumentException("unknown option " + option
                    + " (known: --records N, --warm-up N, --freshness-seconds S, --seed N, --markdown FILE, --json FILE,"
                    + " --render JSON, --cold-start, --runs N, --cold-start-json FILE, --repo DIR, --load,"
                    + " --load-seconds S, --load-connections N, --load-json FILE, --writer, --writer-requests N,"
                    + " --writer-rounds N, --writer-threads N, --writer-json FILE, --floor, --floor-json FILE,"
                    + " --aws-latency, --aws-seconds S, --aws-json FILE, --aws-plot FILE, --aws-processors tally,naive,"
                    + " --aws-shares 0,0.5,..., --aws-time-scale K,"
                    + " --workloads uniform,zipf,hot-song,tag-heavy)");
        }
    }

    private static java.util.List<Double> shares(String value) {
        try {
            return java.util.Arrays.stream(value.split(",")).map(String::trim).map(Double::valueOf).toList();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--aws-shares takes numbers, comma-separated: " + value, e);
        }
    }

    private static int whole(String option, String value) {
        return Integer.parseInt(require(option, value));
    }

    private static Path path(String option, String value) {
        return Path.of(require(option, value));
    }

    private static String require(String option, String value) {
        if (value == null) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }
}
