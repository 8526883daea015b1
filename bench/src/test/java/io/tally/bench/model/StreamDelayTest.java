package io.tally.bench.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

import io.tally.bench.aws.LatencyModel;
import org.junit.jupiter.api.Test;

class StreamDelayTest {
    private static final LatencyModel.Operation GET_RECORDS =
            LatencyModel.awsHeavyTailed().of("DynamoDB Streams", "GetRecords");

    @Test
    void theCalibratedDelayPlusThePollWaitGivesThePublishedMedianAndP99() {
        StreamDelay delay = StreamDelay.calibrated(250, GET_RECORDS);
        double[] model = delay.endToEnd(250, GET_RECORDS);
        assertThat(model[1]).isCloseTo(StreamDelay.PUBLISHED_P50, withPercentage(1));
        assertThat(model[3]).isCloseTo(StreamDelay.PUBLISHED_P99, withPercentage(1));
        // Not fitted, and still near: the shape holds between the two fitted points.
        assertThat(model[0]).isCloseTo(StreamDelay.PUBLISHED_P10, withPercentage(30));
        assertThat(model[2]).isCloseTo(StreamDelay.PUBLISHED_P90, withPercentage(10));
        // The delay alone is what the poll wait and the read leave of the published figures.
        assertThat(delay.p50Millis()).isBetween(20.0, StreamDelay.PUBLISHED_P50 - 100);
        assertThat(delay.p99Millis()).isBetween(delay.p50Millis(), StreamDelay.PUBLISHED_P99);
    }

    @Test
    void withoutPollsTheDelayIsThePublishedFigureItself() {
        // A mapping that never waited to poll and read instantly would see the whole figure as the stream's.
        LatencyModel.Operation instant = new LatencyModel.Operation("DynamoDB Streams", "GetRecords", 0.001, 0.001,
                "none");
        StreamDelay delay = StreamDelay.calibrated(0, instant);
        assertThat(delay.p50Millis()).isCloseTo(StreamDelay.PUBLISHED_P50, withPercentage(1));
        assertThat(delay.p99Millis()).isCloseTo(StreamDelay.PUBLISHED_P99, withPercentage(1));
    }
}
