package io.tally.bench;

import io.tally.bench.aws.ArrivingShard;
import io.tally.bench.aws.CallTimes;
import io.tally.bench.aws.LatencyModel;
import java.util.List;

/**
 * What the AWS-latency mode measured ({@link AwsLatencyRun}); serialized as-is to JSON and rendered by
 * {@link AwsLatencyReport}.
 *
 * @param model               the latency model every call paid
 * @param partitionWritesPerSec the partition's write limit the rates are shares of
 * @param arrivalSeconds      how long records arrived in each steady-rate run
 * @param idlePollMillis      the mapping's pause between polls of an idle shard
 * @param timeScale           how many times slower time ran ({@link io.tally.bench.aws.ArrivingShard}); every
 *                            figure is in the model's time
 * @param points              both processors' runs, with the deployed settings
 * @param tuning              Tally's backlog under each of {@link AwsLatencyRun#TUNING}, side by side
 */
record AwsLatencyResults(String date, List<LatencyModel.Operation> model, int batchSize, double partitionWritesPerSec,
                         long arrivalSeconds, long idlePollMillis, double timeScale, List<Point> points,
                         List<Point> tuning) {

    /**
     * One run of one processor.
     *
     * @param setting            the calls in flight it ran with ({@link AwsLatencyRun.Setting}): its label, its
     *                           derived writes and its PutEvents calls
     * @param share              the share of the partition's limit records arrived at; 0 for a backlog (every
     *                           record there at the start)
     * @param keptUp             every record processed, at the rate they arrived
     * @param freshnessP50Millis over every record that arrived; a record not processed by the deadline counts the time
     *                           it had waited by then (so, when not kept up, a lower bound)
     * @param busySeconds        time inside the processor's invocations
     * @param dynamoDbSeconds    time with at least one DynamoDB call in flight
     * @param eventBridgeSeconds time with at least one EventBridge call in flight
     * @param awsSeconds         time with a call of either in flight
     * @param dynamoDbCalls      DynamoDB calls (attempts)
     * @param beyondModelCalls   DynamoDB calls whose local time exceeded the latency drawn for them
     * @param beyondModelSeconds the time those calls took beyond their draw
     * @param exact              the oracle found the derived data of the processed records exact
     * @param calls              per operation ({@code service/operation}), its calls and their times: the drawn
     *                           latencies in the model's time, the local ones as measured
     */
    record Point(String processor, String setting, int writesInFlight, int publishesInFlight, double share, double rate, int arrived, int processed, double seconds,
                 double recordsPerSec, boolean keptUp, double freshnessP50Millis, double freshnessP99Millis,
                 double freshnessMaxMillis, long invocations, double busySeconds, double dynamoDbSeconds,
                 double eventBridgeSeconds, double awsSeconds, long dynamoDbCalls, long beyondModelCalls,
                 double beyondModelSeconds, long putEventsCalls, boolean exact, int differences,
                 List<CallTimes.OperationFigures> calls) {

        /** The figures of a run whose time ran {@code scale} times slower, in the model's time. */
        static Point of(String processor, AwsLatencyRun.Setting setting, double share, ArrivingShard.Outcome outcome,
                        CallTimes.Snapshot used, double scale, boolean exact, int differences) {
            List<CallTimes.OperationFigures> dynamoDb = List.copyOf(used.of("DynamoDB").values());
            List<CallTimes.OperationFigures> eventBridge = List.copyOf(used.of("EventBridge").values());
            return new Point(processor, setting.label(), setting.writes(), setting.publishes(), share, Double.isInfinite(outcome.rate()) ? 0 : outcome.rate(),
                    outcome.arrived(), outcome.processed(), outcome.seconds(), outcome.recordsPerSec(),
                    outcome.keptUp(), Report.percentile(outcome.freshnessMillis(), 50),
                    Report.percentile(outcome.freshnessMillis(), 99), Report.percentile(outcome.freshnessMillis(), 100),
                    outcome.invocations(), outcome.busySeconds(), used.serviceMillis("DynamoDB") / 1e3 / scale,
                    used.serviceMillis("EventBridge") / 1e3 / scale, used.serviceMillis(CallTimes.ANY) / 1e3 / scale,
                    dynamoDb.stream().mapToLong(CallTimes.OperationFigures::calls).sum(),
                    dynamoDb.stream().mapToLong(CallTimes.OperationFigures::beyondModel).sum(),
                    dynamoDb.stream().mapToDouble(CallTimes.OperationFigures::beyondMillis).sum() / 1e3 / scale,
                    eventBridge.stream().mapToLong(CallTimes.OperationFigures::calls).sum(), exact, differences,
                    used.operations().values().stream().map(op -> new CallTimes.OperationFigures(op.operation(),
                            op.calls(), op.modelledMillis() / scale, op.localMillis(), op.beyondModel(),
                            op.beyondMillis() / scale)).toList());
        }

        boolean backlog() {
            return share == 0;
        }

        /** Time inside invocations with no call in flight: the processor's own code (and the JVM's pauses). */
        double ownSeconds() {
            return Math.max(0, busySeconds - awsSeconds);
        }

        double meanBatch() {
            return invocations == 0 ? 0 : (double) processed / invocations;
        }
    }
}
