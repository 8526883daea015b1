package io.tally.bench.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Percentage.withPercentage;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LatencyModelTest {
    @Test
    void drawsFollowTheMedianAndTheNinetyNinthPercentileTheOperationNames() {
        LatencyModel.Operation putEvents = LatencyModel.aws().of("EventBridge", "PutEvents");
        Random random = new Random(7);
        double[] millis = new double[200_000];
        for (int i = 0; i < millis.length; i++) {
            millis[i] = putEvents.drawNanos(random) / 1e6;
        }
        Arrays.sort(millis);
        assertThat(millis[millis.length / 2]).isCloseTo(putEvents.p50Millis(), withPercentage(2));
        assertThat(millis[(int) (millis.length * 0.99)]).isCloseTo(putEvents.p99Millis(), withPercentage(4));
        assertThat(millis[0]).isPositive();
    }

    @Test
    void anOperationTheModelDoesNotNameTakesTheFallbacksFigures() {
        LatencyModel model = LatencyModel.aws();
        assertThat(model.of("DynamoDB", "UpdateItem").p50Millis()).isEqualTo(5);
        assertThat(model.of("DynamoDB", "DescribeTable")).isSameAs(model.fallback());
        assertThat(model.of("EventBridge", "UpdateItem")).isSameAs(model.fallback());
        assertThat(model.operations()).allSatisfy(operation -> assertThat(operation.source()).isNotBlank());
    }

    @Test
    void refusesFiguresThatAreNoDistribution() {
        assertThatThrownBy(() -> new LatencyModel.Operation("DynamoDB", "GetItem", 5, 4, "x"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LatencyModel.Operation("DynamoDB", "GetItem", 0, 4, "x"))
                .isInstanceOf(IllegalArgumentException.class);
        LatencyModel.Operation once = new LatencyModel.Operation("DynamoDB", "GetItem", 3, 9, "x");
        assertThatThrownBy(() -> new LatencyModel(List.of(once, once), once))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theHeavyTailedModelKeepsTheMedianAndTheP99AndReachesItsP999() {
        LatencyModel.Operation update = LatencyModel.awsHeavyTailed().of("DynamoDB", "UpdateItem");
        LatencyModel.Operation thin = LatencyModel.aws().of("DynamoDB", "UpdateItem");
        assertThat(update.p999Millis()).isEqualTo(update.p99Millis() * 4);
        Random random = new Random(11);
        double[] heavy = new double[400_000];
        double[] light = new double[heavy.length];
        for (int i = 0; i < heavy.length; i++) {
            heavy[i] = update.drawNanos(random) / 1e6;
            light[i] = thin.drawNanos(random) / 1e6;
        }
        Arrays.sort(heavy);
        Arrays.sort(light);
        assertThat(heavy[heavy.length / 2]).isCloseTo(update.p50Millis(), withPercentage(3));
        assertThat(heavy[(int) (heavy.length * 0.99)]).isCloseTo(update.p99Millis(), withPercentage(4));
        assertThat(heavy[(int) (heavy.length * 0.999)]).isCloseTo(update.p999Millis(), withPercentage(10));
        // The thin model's own p99.9 is far below: the tail is what changed.
        assertThat(light[(int) (light.length * 0.999)]).isLessThan(update.p999Millis() / 2);
        assertThat(heavy[heavy.length - 1]).isLessThanOrEqualTo(update.p999Millis() * LatencyModel.Operation.TAIL_CAP);
    }

    @Test
    void refusesAP999BelowTheP99() {
        assertThatThrownBy(() -> new LatencyModel.Operation("DynamoDB", "GetItem", 3, 9, 8, "x"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
