package io.tally.stream.rebuild;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.ShardSettings;
import io.tally.core.domains.Domains;
import io.tally.stream.StreamDomains;
import io.tally.testkit.LocalDynamoDb;
import io.tally.testkit.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class RebuilderIT {
    private final DynamoDbClient dynamo = LocalDynamoDb.client();
    private final String table = LocalDynamoDb.createTable("rebuild");
    private final Rebuilder rebuilder = new Rebuilder(dynamo, table, StreamDomains.derivations(ShardSettings.DEFAULTS), 3);

    @Test
    void verify_baseItemsWithoutDerivedData_reportsEveryMissingFigure() {
        new Workload(dynamo, table, 7, 0, false).run(60);
        VerificationReport report = rebuilder.verify();
        assertThat(report.baseItems()).isPositive();
        assertThat(report.derivedItems()).isZero();
        assertThat(report.isExact()).isFalse();
        assertThat(report.differences()).allSatisfy(d -> assertThat(d.actual()).isNull());
    }

    @Test
    void repair_thenVerify_isExactAndKeepsWatermarks() {
        new Workload(dynamo, table, 11, 1.1, true).run(120);
        List<Long> progress = new ArrayList<>();
        VerificationReport before = rebuilder.repair(progress::add);
        assertThat(before.isExact()).isFalse();
        assertThat(progress).isNotEmpty().isSorted();
        assertThat(rebuilder.verify().isExact()).isTrue();

        dynamo.updateItem(r -> r.tableName(table).key(Domains.globalStatsKey(0).toAttributeMap())
                .updateExpression("SET #users = #users + :one, wm_test = :wm")
                .expressionAttributeNames(Map.of("#users", "users"))
                .expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1"), ":wm", AttributeValue.fromS("0042"))));
        VerificationReport tampered = rebuilder.verify();
        assertThat(tampered.differences()).singleElement().satisfies(d -> {
            assertThat(d.key()).isEqualTo(Domains.globalStatsKey(0));
            assertThat(d.type()).isEqualTo(Domains.GLOBAL_STATS.entityType());
            assertThat(d.attribute()).isEqualTo("users");
        });

        rebuilder.repair(count -> { });
        assertThat(rebuilder.verify().isExact()).isTrue();
        var global = dynamo.getItem(r -> r.tableName(table).key(Domains.globalStatsKey(0).toAttributeMap())).item();
        assertThat(global.get("wm_test").s()).isEqualTo("0042");
    }

    @Test
    void verify_poisonItems_areCountedUnreadableNotDerived() {
        Workload workload = new Workload(dynamo, table, 3, 0, true);
        workload.run(400);
        VerificationReport report = rebuilder.repair(count -> { });
        assertThat(report.unreadableItems()).isPositive();
        assertThat(rebuilder.verify().isExact()).isTrue();
    }
}
