package io.tally.local.maintenance;

import io.tally.stream.rebuild.WatermarkPruner;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tally-local prune-watermarks}: the deployment's daily pass of the pruner, on demand. */
@Command(name = "prune-watermarks", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Removes from derived items the watermark attributes of stream shards that are gone, and those "
                    + "shards' cursors (see docs/exactly-once.md, \"Watermark growth\"). Safe while the stream is "
                    + "processed. On AWS the stack makes a pass a day, in hourly runs; this makes a whole pass now.",
            "Exit 1 when the pass is refused (nothing removed), 5 when DynamoDB refused to change some items (the "
                    + "summary names the first; the others were pruned).",
            ""})
public final class PruneWatermarksCommand extends TableCommand {
    @Option(names = "--segments", paramLabel = "N", defaultValue = "" + WatermarkPruner.DEFAULT_SEGMENTS,
            description = "parallel scan segments, 1 to " + WatermarkPruner.MAX_SEGMENTS + " (default: ${DEFAULT-VALUE})")
    int segments;

    @Override
    int run(TableConnection.Clients clients, PrintWriter out, PrintWriter err) {
        err.println("pruning watermarks of " + table.describe());
        Progress progress = new Progress(err);
        WatermarkPruner.Report report;
        try {
            report = new WatermarkPruner(clients.dynamo(), clients.streams(), table.tableName, segments)
                    .prune(progress);
        } catch (WatermarkPruner.Refused e) {
            err.println(e.getMessage());
            return 1;
        }
        progress.done();
        out.println(report.summary());
        // As verify --repair: items DynamoDB would not take are listed (in the summary and the log), the rest done.
        return report.itemsFailed() > 0 ? 5 : 0;
    }
}
