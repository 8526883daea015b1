package io.tally.bench.model;

import io.tally.bench.aws.LatencyModel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What the CPU-confined model measured ({@link ModelRun}): serialised as-is to JSON, rendered by {@link ModelReport}.
 *
 * @param model            every call's latency figures (heavy-tailed)
 * @param streamDelay      the calibrated stream delay's p50 and p99, in milliseconds
 * @param streamDelayFit   the published p10, p50, p90, p99 (first row) and the model's on an idle shard (second)
 * @param batchSize        the mapping's {@code BatchSize}
 * @param javaToolOptions  the stream processor's {@code JAVA_TOOL_OPTIONS} in the template
 * @param defaultMemory    the template's memory for the stream processor, in MB
 * @param timeScale        how many times slower time ran; every figure is in the model's time
 * @param putEventsPerSecond the PutEvents calls a second the shard's function may make (its share of the quota)
 * @param warmUpRecords    records each run's function processed before its quota, unreported
 * @param floor            the write-unit floor the targets compare with, or null when it was not computed
 * @param points           every run
 */
public record ModelResults(String date, List<LatencyModel.Operation> model, double[] streamDelay,
                           double[][] streamDelayFit,
                    int batchSize, String javaToolOptions, int defaultMemory, double timeScale,
                    double putEventsPerSecond, int warmUpRecords, Floor floor, List<Point> points) {

    /**
     * The least write units a record any processor must spend (the bench's floor: DynamoDB's published size rules, the
     * table and its indexes, item by item between the states before and after each batch), over {@code records}
     * replayed in batches of {@code batchSize}.
     */
    public record Floor(int records, int batchSize, double unitsPerRecord) {
    }

    /**
     * One run: a function process at a memory setting and JIT flags, a batching window, records arriving at a share
     * of a partition's write limit (0: a backlog), one repeat.
     *
     * @param group               what the run belongs to: {@code rates}, {@code frontier} or {@code tuning}
     * @param cores               the share of a core the function had (memory / 1,769 MB)
     * @param recordsPerSec       processed over the time from the first arrival to the last return
     * @param freshness           p50, p99, p99.9 and max, in milliseconds, over every record that arrived (one not
     *                            processed by the deadline counts what it had waited: a lower bound)
     * @param writeUnitsPerRecord write units DynamoDB reported for the function's writes, per processed record
     * @param cpuMillisPerRecord  the function process's CPU time per processed record
     * @param echoPerRecord       echoed records the mapping read, per processed record
     * @param throttledWrites     write attempts the partition throttle refused
     * @param throttledPutEvents  PutEvents attempts the quota refused
     * @param lateCalls           calls whose local time exceeded the latency drawn (they measured the emulator)
     * @param exact               the oracle found the derived data of every processed record exact
     * @param undoneCascades      cascades the oracle found undone ({@link ModelRun#exact}: the recording's, not the
     *                            function's)
     */
    public record Point(String group, int memory, String jit, double cores, double window, double share, int repeat,
                 int arrived, int processed, double seconds, double recordsPerSec, boolean keptUp, double[] freshness,
                 long invocations, double busySeconds, double writeUnitsPerRecord, double cpuMillisPerRecord,
                 double echoPerRecord, long throttledWrites, long throttledPutEvents, long lateCalls,
                 long calls, long failedInvocations, boolean exact, int differences, int undoneCascades) {
        double p99() {
            return freshness[1];
        }
    }

    /** The points of a group at a memory, JIT flags, window and share, every repeat. */
    List<Point> repeats(String group, int memory, String jit, double window, double share) {
        return points.stream().filter(p -> p.group().equals(group) && p.memory() == memory && p.jit().equals(jit)
                && p.window() == window && p.share() == share).toList();
    }

    /** The median of some figure over points, and its spread (lowest, highest). */
    static double[] medianAndSpread(List<Double> values) {
        if (values.isEmpty()) {
            return new double[] {Double.NaN, Double.NaN, Double.NaN};
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return new double[] {median, sorted.get(0), sorted.get(n - 1)};
    }

    /** The nearest-rank percentile of values (100: the largest). */
    static double percentile(List<Double> values, double percentile) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int rank = (int) Math.ceil(percentile / 100 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }
}
