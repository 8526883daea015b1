package io.tally.stream.rebuild;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.Key;
import io.tally.core.PrunerPositionItem;
import io.tally.testkit.HookedDynamoDb;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * The pruner's pass as a parallel scan in segments, each with its own stored position, spread over runs that stop
 * when their time is up; on DynamoDB Local's HTTP server, so that an SDK interceptor sees the scans.
 */
class WatermarkPrunerSegmentsIT {
    private static final Duration DAY = Duration.ofDays(1);
    private static final int PAGE = 4;
    private static HookedDynamoDb server;
    private static DynamoDbClient dynamo;
    private static DynamoDbStreamsClient streams;
    private static final PrunerHooks HOOKS = new PrunerHooks();
    private static DynamoDbClient hooked;

    private PrunerTable table;

    @BeforeAll
    static void start() {
        server = HookedDynamoDb.start(HOOKS);
        dynamo = server.plain();
        streams = server.streams();
        hooked = server.hooked();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @BeforeEach
    void table() {
        HOOKS.reset();
        table = new PrunerTable(dynamo, streams, "prune-segments");
    }

    private WatermarkPruner pruner(int segments) {
        return new WatermarkPruner(hooked, streams, table.name, segments);
    }

    @Test
    void prune_inFourSegments_prunesTheWholeTable_eachItemScannedOnce() {
        List<Key> items = table.putDerived(60);
        List<Key> cursors = List.of(table.putCursor("shardId-00000011-gone", "2026-11-20T10:00:00Z"),
                table.putCursor("shardId-00000012-gone", "2026-11-20T10:00:00Z"));
        HOOKS.scanLimit = PAGE;

        WatermarkPruner.Report report = pruner(4).prune();

        assertThat(report.outcome()).isEqualTo(WatermarkPruner.Outcome.COMPLETE);
        assertThat(report.itemsPruned()).isEqualTo(60);
        assertThat(report.watermarksRemoved()).isEqualTo(60 * (1 + PrunerTable.GONE_BEFORE.size()));
        assertThat(report.cursorsRemoved()).isEqualTo(2);
        // The derived items, the cursors, the base item and the pruner's position.
        assertThat(report.itemsScanned()).isEqualTo(64);
        assertThat(HOOKS.scanned).hasSize(64).doesNotHaveDuplicates().containsAll(items);
        assertThat(Set.copyOf(HOOKS.segments)).containsExactlyInAnyOrder("0/4", "1/4", "2/4", "3/4");
        assertThat(table.staleItems()).isEmpty();
        cursors.forEach(cursor -> assertThat(table.get(cursor)).isNullOrEmpty());
    }

    @Test
    void resume_runsOutOfTime_eachSegmentContinuesFromItsOwnPosition_withTheSegmentsThePassBeganWith() {
        List<Key> items = table.putDerived(60);
        HOOKS.scanLimit = PAGE;

        // Each run has no time beyond its first page per segment; the first run begins the pass with 3 segments.
        List<WatermarkPruner.Report> runs = new ArrayList<>();
        runs.add(pruner(3).resume(DAY, () -> false, scanned -> { }));
        Map<String, AttributeValue> position = table.get(PrunerPositionItem.KEY);
        assertThat(position.get(PrunerPositionItem.PHASE).s()).isEqualTo("check");
        assertThat(position.get(PrunerPositionItem.SEGMENTS).n()).isEqualTo("3");
        assertThat(position.get(PrunerPositionItem.POSITIONS).m()).containsOnlyKeys("0", "1", "2");
        // A pruner since configured with 5 segments continues the pass with its 3.
        while (runs.get(runs.size() - 1).outcome() != WatermarkPruner.Outcome.COMPLETE) {
            assertThat(runs).as("runs of one pass").hasSizeLessThan(40);
            runs.add(pruner(5).resume(DAY, () -> false, scanned -> { }));
        }

        assertThat(runs.size()).as("the pass spread over runs").isGreaterThan(4);
        assertThat(HOOKS.scanned).as("each item scanned by the pruning once: each run continued where one stopped")
                .doesNotHaveDuplicates().containsAll(items)
                .hasSize((int) runs.stream().mapToLong(WatermarkPruner.Report::itemsScanned).sum());
        assertThat(Set.copyOf(HOOKS.segments)).containsExactlyInAnyOrder("0/3", "1/3", "2/3");
        assertThat(table.staleItems()).isEmpty();
        position = table.get(PrunerPositionItem.KEY);
        assertThat(position).containsKey(PrunerPositionItem.PASS_COMPLETED)
                .doesNotContainKeys(PrunerPositionItem.PHASE, PrunerPositionItem.POSITIONS);
        assertThat(pruner(3).resume(DAY, () -> true, scanned -> { }).outcome())
                .isEqualTo(WatermarkPruner.Outcome.NOT_DUE);
    }

    @Test
    void resume_oneSegmentThrottled_theOthersStopAfterTheirPage_andTheNextRunContinuesEachFromItsPosition() {
        table.putDerived(60);
        HOOKS.scanLimit = PAGE;
        // The last derived item of segment 0's part of the table: that segment has done several pages by then.
        List<Key> segmentZero = new ArrayList<>();
        dynamo.scanPaginator(r -> r.tableName(table.name).segment(0).totalSegments(3)).items().forEach(item -> {
            if (item.get("pk").s().startsWith("USER#u")) {
                segmentZero.add(Key.of(item));
            }
        });
        assertThat(segmentZero).hasSizeGreaterThan(3 * PAGE);
        HOOKS.throttled = segmentZero.get(segmentZero.size() - 1);
        WatermarkPruner pruner = pruner(3);

        assertThatThrownBy(() -> pruner.resume(DAY, () -> true, scanned -> { }))
                .isInstanceOf(ProvisionedThroughputExceededException.class);

        Set<Key> firstRun = new HashSet<>(HOOKS.scanned);
        assertThat(table.staleItems()).contains(HOOKS.throttled);
        HOOKS.throttled = null;
        HOOKS.scanned.clear();
        WatermarkPruner.Report next = pruner.resume(DAY, () -> true, scanned -> { });

        assertThat(next.outcome()).isEqualTo(WatermarkPruner.Outcome.COMPLETE);
        List<Key> again = HOOKS.scanned.stream().filter(firstRun::contains).toList();
        assertThat(again).as("scanned again: at most the page each segment was on when the run stopped")
                .hasSizeLessThanOrEqualTo(3 * PAGE).contains(segmentZero.get(segmentZero.size() - 1));
        assertThat(table.staleItems()).isEmpty();
    }

    @Test
    void resume_aPositionOfThePrunerBeforeSegments_isNotContinued_aPassBeginsWhenDue_andRemovesIt() {
        table.putDerived(5);
        Map<String, AttributeValue> old = new java.util.HashMap<>(PrunerPositionItem.KEY.toAttributeMap());
        old.put("entityType", AttributeValue.fromS(PrunerPositionItem.TYPE.attributeValue()));
        old.put(PrunerPositionItem.NEXT_PK, AttributeValue.fromS("USER#u002"));
        old.put(PrunerPositionItem.NEXT_SK, AttributeValue.fromS("#STATS#"));
        old.put(PrunerPositionItem.PASS_STARTED, AttributeValue.fromS(Instant.now().minus(Duration.ofDays(2)).toString()));
        dynamo.putItem(r -> r.tableName(table.name).item(old));

        WatermarkPruner.Report report = pruner(2).resume(DAY, () -> true, scanned -> { });

        assertThat(report.outcome()).isEqualTo(WatermarkPruner.Outcome.COMPLETE);
        assertThat(report.itemsPruned()).isEqualTo(5);
        assertThat(table.get(PrunerPositionItem.KEY))
                .doesNotContainKeys(PrunerPositionItem.NEXT_PK, PrunerPositionItem.NEXT_SK);
    }
}
