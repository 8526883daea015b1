package io.tally.bench.aws;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CallTimesTest {
    private static final long MS = 1_000_000L;

    @Test
    void overlappingCallsOfAServiceCountOnceAndTheUnionOfAllServicesToo() {
        CallTimes times = new CallTimes();
        times.started("DynamoDB", 0);
        times.started("DynamoDB", 5 * MS);
        times.ended("DynamoDB", 10 * MS);
        times.started("EventBridge", 12 * MS);
        times.ended("DynamoDB", 20 * MS);
        times.ended("EventBridge", 30 * MS);
        times.started("DynamoDB", 40 * MS);

        CallTimes.Snapshot at50 = times.snapshot(50 * MS);
        assertThat(at50.serviceMillis("DynamoDB")).isEqualTo(30.0);
        assertThat(at50.serviceMillis("EventBridge")).isEqualTo(18.0);
        assertThat(at50.serviceMillis(CallTimes.ANY)).isEqualTo(40.0);
    }

    @Test
    void countsCallsSlowerThanTheirDrawAndSubtractsEarlierSnapshots() {
        CallTimes times = new CallTimes();
        times.attempt("DynamoDB", "UpdateItem", 2 * MS, 5 * MS);
        CallTimes.Snapshot before = times.snapshot(0);
        times.attempt("DynamoDB", "UpdateItem", 9 * MS, 5 * MS);
        times.attempt("EventBridge", "PutEvents", 1 * MS, 20 * MS);

        CallTimes.Snapshot used = times.snapshot(0).minus(before);
        CallTimes.OperationFigures updates = used.operations().get("DynamoDB/UpdateItem");
        assertThat(updates.calls()).isEqualTo(1);
        assertThat(updates.beyondModel()).isEqualTo(1);
        assertThat(updates.beyondMillis()).isEqualTo(4.0);
        assertThat(used.of("EventBridge")).containsOnlyKeys("EventBridge/PutEvents");
        assertThat(used.of("EventBridge").get("EventBridge/PutEvents").beyondModel()).isZero();
    }
}
