package io.tally.stream.rebuild;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.Key;
import io.tally.testkit.HookedDynamoDb;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * What the pruner does when DynamoDB refuses a request (issue 38: one item's refusal stopped every pass at the same
 * page): an item refused for its own sake is reported and passed, throttling stops the pass where it stored its
 * position. On DynamoDB Local's HTTP server, so that an SDK interceptor makes the refusals.
 */
class WatermarkPrunerFailuresIT {
    private static final Duration DAY = Duration.ofDays(1);
    private static final int PAGE = 3;
    private static HookedDynamoDb server;
    private static DynamoDbClient dynamo;
    private static DynamoDbStreamsClient streams;
    private static final PrunerHooks HOOKS = new PrunerHooks();
    /** The pruner's client: its requests pass the test's hooks. */
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
        table = new PrunerTable(dynamo, streams, "prune-failures");
    }

    /** A pruner of one segment, whose scan meets the items in {@link #inScanOrder}'s order. */
    private WatermarkPruner pruner() {
        return new WatermarkPruner(hooked, streams, table.name, 1);
    }

    /** The derived items in the order a scan returns them. */
    private List<Key> inScanOrder(List<Key> items) {
        List<Key> order = new ArrayList<>();
        dynamo.scanPaginator(r -> r.tableName(table.name)).items().forEach(item -> {
            if (items.contains(Key.of(item))) {
                order.add(Key.of(item));
            }
        });
        return order;
    }

    @Test
    void prune_anItemDynamoDbRefusesForItsOwnSake_isReportedWithItsKey_andThePassPrunesTheItemsAfterIt() {
        List<Key> items = inScanOrder(table.putDerived(20));
        Key refused = items.get(8);
        HOOKS.scanLimit = PAGE;
        HOOKS.invalid = refused;

        WatermarkPruner.Report report = pruner().prune();

        assertThat(report.outcome()).isEqualTo(WatermarkPruner.Outcome.COMPLETE);
        assertThat(report.itemsFailed()).isEqualTo(1);
        assertThat(report.failedKeys()).containsExactly(refused);
        assertThat(report.summary()).contains("1 items DynamoDB refused to change (" + refused.pk() + " / #STATS#)");
        assertThat(report.itemsPruned()).isEqualTo(19);
        // The pass went on past the refused item, pages beyond its own.
        assertThat(HOOKS.scanned.subList(HOOKS.scanned.indexOf(refused) + 1, HOOKS.scanned.size()))
                .containsAll(items.subList(9, 20));
        assertThat(table.staleItems()).containsExactly(refused);
    }

    @Test
    void resume_runsOfOnePage_passTheRefusedItem_andTheNextPassIsNotStuckThere_andPrunesItOnceDynamoDbTakesIt() {
        List<Key> items = table.putDerived(20);
        Key refused = items.get(10);
        HOOKS.scanLimit = PAGE;
        HOOKS.invalid = refused;
        // Several segments, each taking one page per run.
        WatermarkPruner pruner = new WatermarkPruner(hooked, streams, table.name, 3);

        for (int pass = 1; pass <= 2; pass++) {
            List<WatermarkPruner.Report> runs = runsToTheEndOfAPass(pruner);

            assertThat(runs.stream().mapToLong(WatermarkPruner.Report::itemsFailed).sum()).as("pass %d", pass)
                    .isEqualTo(1);
            assertThat(runs.stream().flatMap(run -> run.failedKeys().stream())).containsExactly(refused);
            assertThat(table.staleItems()).containsExactly(refused);
        }

        HOOKS.invalid = null;
        WatermarkPruner.Report lifted = runsToTheEndOfAPass(pruner).stream()
                .filter(run -> run.itemsPruned() > 0).findFirst().orElseThrow();
        assertThat(lifted.itemsPruned()).isEqualTo(1);
        assertThat(table.staleItems()).isEmpty();
    }

    /** Scheduled runs of one page per segment each, from a new pass (due at once) to its end. */
    private List<WatermarkPruner.Report> runsToTheEndOfAPass(WatermarkPruner pruner) {
        List<WatermarkPruner.Report> runs = new ArrayList<>();
        WatermarkPruner.Report run;
        do {
            run = pruner.resume(Duration.ZERO, () -> false, scanned -> { });
            runs.add(run);
            assertThat(runs).as("runs of one pass: every page is taken once, none is stuck").hasSizeLessThan(30);
        } while (run.outcome() != WatermarkPruner.Outcome.COMPLETE);
        return runs;
    }

    @Test
    void resume_throttled_stopsThePassAtThePageItWasOn_andTheNextRunContinuesFromThere() {
        List<Key> items = inScanOrder(table.putDerived(20));
        Key throttled = items.get(10);
        HOOKS.scanLimit = PAGE;
        HOOKS.throttled = throttled;
        WatermarkPruner pruner = pruner();

        assertThatThrownBy(() -> pruner.resume(DAY, () -> true, scanned -> { }))
                .isInstanceOf(ProvisionedThroughputExceededException.class);

        List<Key> firstRun = List.copyOf(HOOKS.scanned);
        int at = firstRun.indexOf(throttled);
        List<Key> pagesBefore = firstRun.subList(0, at - at % PAGE);
        assertThat(table.staleItems()).as("the pages before the throttled one are pruned, the pass stopped there")
                .doesNotContainAnyElementsOf(pagesBefore).contains(throttled).containsAll(items.subList(11, 20));

        HOOKS.throttled = null;
        HOOKS.scanned.clear();
        WatermarkPruner.Report next = pruner.resume(DAY, () -> true, scanned -> { });

        assertThat(next.outcome()).isEqualTo(WatermarkPruner.Outcome.COMPLETE);
        assertThat(HOOKS.scanned).as("the next run begins at the page the pass stopped on")
                .startsWith(firstRun.get(at - at % PAGE)).doesNotContainAnyElementsOf(pagesBefore);
        assertThat(table.staleItems()).isEmpty();
    }
}
