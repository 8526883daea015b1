package io.tally.local.maintenance;

import io.tally.core.ShardSettings;
import io.tally.stream.StreamDomains;
import io.tally.stream.rebuild.Difference;
import io.tally.stream.rebuild.Rebuilder;
import io.tally.stream.rebuild.VerificationReport;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** {@code tally-local verify}: derived data against a recomputation from the base items, and its repair. */
@Command(name = "verify", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Recomputes all derived data (counters, stats items, selector entries, status-index projections) from a "
                    + "scan of the base items and lists every attribute that differs from the stored derived items. "
                    + "With --repair, writes the recomputed values over the differing ones: do that while the stream "
                    + "is drained and its processing paused (on AWS: disable the event source mapping), or the "
                    + "increments it applies meanwhile are overwritten.",
            ""},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "  0:derived data is exact (or was repaired)",
            "  1:an unexpected failure",
            "  2:a usage error",
            "  3:differences found (without --repair)"})
public final class VerifyCommand implements Callable<Integer> {
    static final int DIFFERENCES = 3;
    /** How many differences are printed; the count is always printed. */
    static final int SHOWN = 50;

    @Mixin
    TableConnection table;

    @Option(names = "--repair", description = "write the recomputed values over the differing ones")
    boolean repair;

    @Option(names = "--selector-shards", paramLabel = "N", defaultValue = "4",
            description = "SELECTOR_SHARDS of the deployment (default: ${DEFAULT-VALUE})")
    int selectorShards;

    @Option(names = "--status-shards", paramLabel = "N", defaultValue = "4",
            description = "STATUS_SHARDS of the deployment (default: ${DEFAULT-VALUE})")
    int statusShards;

    @Option(names = "--global-shards", paramLabel = "N", defaultValue = "4",
            description = "GLOBAL_SHARDS of the deployment (default: ${DEFAULT-VALUE})")
    int globalShards;

    @Option(names = "--segments", paramLabel = "N", defaultValue = "4",
            description = "parallel scan segments (default: ${DEFAULT-VALUE})")
    int segments;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ShardSettings settings = new ShardSettings(selectorShards, statusShards, globalShards);
        try (DynamoDbClient dynamo = table.dynamoDb()) {
            Rebuilder rebuilder = new Rebuilder(dynamo, table.tableName, StreamDomains.derivations(settings), segments);
            err.println((repair ? "repairing " : "verifying ") + table.describe());
            Progress progress = new Progress(err);
            VerificationReport report = repair ? rebuilder.repair(progress) : rebuilder.verify(progress);
            progress.done();
            out.println(report.baseItems() + " base items, " + report.derivedItems() + " derived items, "
                    + report.unreadableItems() + " unreadable base items");
            if (report.isExact()) {
                out.println("derived data is exact");
                return 0;
            }
            out.println(report.differences().size() + " differing attributes"
                    + (repair ? ", repaired:" : ":"));
            report.differences().stream().limit(SHOWN).map(Difference::toString).forEach(d -> out.println("  " + d));
            if (report.differences().size() > SHOWN) {
                out.println("  ... and " + (report.differences().size() - SHOWN) + " more");
            }
            return repair ? 0 : DIFFERENCES;
        }
    }
}
