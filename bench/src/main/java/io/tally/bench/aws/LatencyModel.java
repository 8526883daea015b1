package io.tally.bench.aws;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * How long a call to an AWS service takes, seen from a function in the same Region: per operation, a log-normal
 * distribution fixed by its median (p50) and its 99th percentile (p99). Log-normal because latencies are positive
 * and right-skewed; two percentiles fix its two parameters.
 *
 * <p>{@link #aws()} is the model the bench runs with; {@link Operation#source()} says where each figure comes from
 * (BENCHMARKS.md prints them). An operation the model does not name takes the {@link #fallback()}'s figures.
 */
public final class LatencyModel {
    /** The standard normal's 99th percentile: p99 = p50 * exp(sigma * Z99). */
    static final double Z99 = 2.3263478740408408;

    /**
     * One operation's figures.
     *
     * @param service    the SDK's service name ({@code DynamoDB}, {@code EventBridge}, or {@code DynamoDB Streams})
     * @param operation  the API operation ({@code UpdateItem}, {@code PutEvents}, ...)
     * @param p50Millis  its median latency
     * @param p99Millis  its 99th percentile, at least the median
     * @param p999Millis its 99.9th percentile: the log-normal's own (thin tail), or more, and then the draws beyond
     *                   the p99 follow a Pareto tail through it (a heavy tail)
     * @param source     where the figures come from
     */
    public record Operation(String service, String operation, double p50Millis, double p99Millis, double p999Millis,
                            String source) {
        /** The p99.9 of the standard normal. */
        static final double Z999 = 3.090232306167813;
        /** No draw exceeds this many times the p99.9, however heavy the tail. */
        static final double TAIL_CAP = 10;

        public Operation {
            Objects.requireNonNull(service, "service");
            Objects.requireNonNull(operation, "operation");
            Objects.requireNonNull(source, "source");
            if (p999Millis == 0 && p50Millis > 0 && p99Millis >= p50Millis) {
                // Absent: figures written before the p99.9 was modelled had the log-normal's own.
                p999Millis = p50Millis * Math.exp(Math.log(p99Millis / p50Millis) / Z99 * Z999);
            }
            if (!(p50Millis > 0) || p99Millis < p50Millis || !(p999Millis >= p99Millis)) {
                throw new IllegalArgumentException(operation + ": need 0 < p50 <= p99 <= p99.9, got " + p50Millis
                        + ", " + p99Millis + " and " + p999Millis);
            }
        }

        /** A log-normal operation: its p99.9 is the distribution's own. */
        public Operation(String service, String operation, double p50Millis, double p99Millis, String source) {
            this(service, operation, p50Millis, p99Millis,
                    p50Millis * Math.exp(Math.log(p99Millis / p50Millis) / Z99 * Z999), source);
        }

        double sigma() {
            return Math.log(p99Millis / p50Millis) / Z99;
        }

        /** Whether draws beyond the p99 follow a Pareto tail (the p99.9 is above the log-normal's own). */
        boolean heavyTail() {
            return p999Millis > p50Millis * Math.exp(sigma() * Z999) * 1.0001;
        }

        /** A latency drawn from this operation's distribution, in nanoseconds. */
        public long drawNanos(RandomGenerator random) {
            if (!heavyTail()) {
                return Math.round(p50Millis * Math.exp(sigma() * random.nextGaussian()) * 1_000_000d);
            }
            double u = random.nextDouble();
            if (u < 0.01) {
                // The Pareto tail beyond the p99: P(X > x) = 0.01 (x / p99)^-alpha, through the p99.9.
                double alpha = Math.log(10) / Math.log(p999Millis / p99Millis);
                double tail = p99Millis * Math.pow(Math.max(u / 0.01, 1e-12), -1 / alpha);
                return Math.round(Math.min(tail, p999Millis * TAIL_CAP) * 1_000_000d);
            }
            double z;
            do {
                z = random.nextGaussian();
            } while (z > Z99);
            return Math.round(p50Millis * Math.exp(sigma() * z) * 1_000_000d);
        }
    }

    /** Where the DynamoDB medians come from. */
    static final String DYNAMODB_MEDIAN = "AWS Knowledge Center, \"How can I troubleshoot high latency on an Amazon"
            + " DynamoDB table?\": for GetItem and PutItem \"an average latency is in single-digit milliseconds\"";
    /** Where the DynamoDB tails come from: a stated assumption, as AWS publishes none. */
    static final String DYNAMODB_TAIL = "p99 3x p50: an assumption; the DynamoDB Developer Guide (\"Troubleshooting"
            + " latency issues\") expects spikes at high percentiles but publishes no figure";

    private final Map<String, Operation> operations;
    private final Operation fallback;

    public LatencyModel(List<Operation> operations, Operation fallback) {
        Map<String, Operation> byName = new LinkedHashMap<>();
        for (Operation operation : operations) {
            if (byName.put(key(operation.service(), operation.operation()), operation) != null) {
                throw new IllegalArgumentException("operation named twice: " + operation.operation());
            }
        }
        this.operations = byName;
        this.fallback = Objects.requireNonNull(fallback, "fallback");
    }

    /** The model of the bench's AWS-latency mode: a function and the services in one Region. */
    public static LatencyModel aws() {
        return new LatencyModel(List.of(
                new Operation("DynamoDB", "GetItem", 4, 12, DYNAMODB_MEDIAN + "; " + DYNAMODB_TAIL),
                new Operation("DynamoDB", "PutItem", 5, 15, DYNAMODB_MEDIAN + "; " + DYNAMODB_TAIL),
                new Operation("DynamoDB", "UpdateItem", 5, 15, "as PutItem (a single-item write)"),
                new Operation("DynamoDB", "DeleteItem", 5, 15, "as PutItem (a single-item write)"),
                new Operation("DynamoDB", "Query", 6, 18, "a GetItem and a page of items: GetItem's figures"
                        + " and one more millisecond; " + DYNAMODB_TAIL),
                new Operation("DynamoDB", "BatchWriteItem", 10, 30, "up to 25 writes in parallel on the service"
                        + " side: twice a single write; " + DYNAMODB_TAIL),
                new Operation("DynamoDB", "TransactWriteItems", 15, 45, "three single writes: the Developer"
                        + " Guide (\"Managing complex workflows with DynamoDB transactions\") says a transaction does"
                        + " two underlying reads or writes per item, prepare and commit; " + DYNAMODB_TAIL),
                new Operation("DynamoDB Streams", "GetRecords", 10, 30, "the event source mapping's read of a"
                        + " shard; AWS publishes no figure: an assumption, twice a single write"),
                new Operation("EventBridge", "PutEvents", 20, 60, "an assumption: \"tens of milliseconds\" (issue"
                        + " 30); AWS publishes no PutEvents latency, and a caller sees a synchronous, durable"
                        + " write of the entries before the answer")),
                new Operation("any", "other", 5, 15, "as a DynamoDB single-item write"));
    }

    /** Where the heavy tails come from: a stated assumption, as AWS publishes no p99.9. */
    static final String HEAVY_TAIL = "p99.9 4x p99, a Pareto tail beyond the p99: an assumption (AWS publishes no"
            + " p99.9; the DynamoDB Developer Guide, \"Troubleshooting latency issues\", expects occasional spikes)";

    /**
     * {@link #aws()} with heavy tails: every operation's p50 and p99 as there, its p99.9 four times its p99, and the
     * draws beyond the p99 on a Pareto tail through that p99.9 ({@link Operation#drawNanos}).
     */
    public static LatencyModel awsHeavyTailed() {
        LatencyModel thin = aws();
        return new LatencyModel(thin.operations().stream().map(LatencyModel::heavy).toList(), heavy(thin.fallback()));
    }

    private static Operation heavy(Operation thin) {
        return new Operation(thin.service(), thin.operation(), thin.p50Millis(), thin.p99Millis(),
                thin.p99Millis() * 4, thin.source() + "; " + HEAVY_TAIL);
    }

    public List<Operation> operations() {
        return List.copyOf(operations.values());
    }

    public Operation fallback() {
        return fallback;
    }

    /** The figures of an operation of a service, or the fallback's. */
    public Operation of(String service, String operation) {
        return operations.getOrDefault(key(service, operation), fallback);
    }

    private static String key(String service, String operation) {
        return service + "/" + operation;
    }
}
