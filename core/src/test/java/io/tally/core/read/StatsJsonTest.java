package io.tally.core.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.EntityType;
import io.tally.core.MalformedItemException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class StatsJsonTest {
    private static final EntityType STATS = EntityType.derivedType("Stats");

    @Test
    void counter_missingItemOrAttribute_readsAsZero() {
        assertThat(StatsJson.counter(null, "posts")).isZero();
        assertThat(StatsJson.counter(Map.of("entityType", AttributeValue.fromS("Stats")), "posts")).isZero();
        assertThat(StatsJson.counter(Map.of("posts", AttributeValue.fromN("3")), "posts")).isEqualTo(3);
    }

    @Test
    void counter_notANumber_isMalformed() {
        assertThatThrownBy(() -> StatsJson.counter(Map.of("posts", AttributeValue.fromS("three")), "posts"))
                .isInstanceOf(MalformedItemException.class);
    }

    @Test
    void check_anItemOfAnotherKind_isMalformed_noItemIsFine() {
        assertThatThrownBy(() -> StatsJson.check(Map.of("entityType", AttributeValue.fromS("User")), STATS))
                .isInstanceOf(MalformedItemException.class);
        assertThatCode(() -> StatsJson.check(null, STATS)).doesNotThrowAnyException();
        assertThatCode(() -> StatsJson.check(Map.of("entityType", AttributeValue.fromS("Stats")), STATS))
                .doesNotThrowAnyException();
    }
}
