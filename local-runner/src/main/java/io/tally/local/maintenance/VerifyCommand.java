package io.tally.local.maintenance;

import io.tally.core.Key;
import io.tally.core.ShardSetting;
import io.tally.core.ShardSettings;
import io.tally.core.derive.CascadeRunner;
import io.tally.core.domain.DomainRegistry;
import io.tally.local.domains.DomainJars;
import io.tally.stream.rebuild.Rebuilder;
import io.tally.stream.rebuild.RepairReport;
import io.tally.stream.rebuild.VerificationReport;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code tally-local verify}: derived data against a recomputation from the base items at a position of the table's
 * stream, and its repair (which is also the backfill of a table whose history is older than its stream).
 */
@Command(name = "verify", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Recomputes all derived data (counters, stats items, selector entries, status-index projections) from a "
                    + "scan of the base items and the records of the table's stream (read after the scan, to its end), "
                    + "which makes it consistent with that stream position. Lists every attribute that differs in the "
                    + "derived items the stream processor has brought up to the position, and counts the others.",
            "With --repair, writes every derived item that differs or is behind with its content at the position "
                    + "and the position as its watermarks: the stream processor then skips the records the content "
                    + "reflects. Safe while the stream processor runs; an item it moves past the position meanwhile "
                    + "is refused (exit 5: pause it and run again). The same command backfills a table whose items "
                    + "are older than its stream (see docs/exactly-once.md, \"Repair and backfill\").",
            ""},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "  0:derived data is exact (or was repaired)",
            "  1:an unexpected failure",
            "  2:a usage error",
            "  3:differences found (without --repair)",
            "  4:no differences, but derived items are behind the stream (without --repair): run again when drained",
            "  5:the repair left items unwritten (refused: a stream processor moved them past the position, pause "
                    + "it and run again; or not taken by DynamoDB, each listed with the reason)",
            "  6:items of entity types no loaded domain declares (pass each domain's jar with --domain-jar), or base "
                    + "items their domain cannot read; each type is named. A repair writes nothing while items of "
                    + "undeclared types are present, unless --allow-unknown-types"})
public final class VerifyCommand extends TableCommand {
    static final int DIFFERENCES = 3;
    static final int BEHIND = 4;
    static final int INCOMPLETE = 5;
    static final int UNREADABLE = 6;
    /** How many differences (or refused items) are printed; the count is always printed. */
    static final int SHOWN = 50;
    /** On AWS a change reaches the stream within about a second; DynamoDB Local's stream is synchronous. */
    static final Duration AWS_STREAM_SETTLE = Duration.ofSeconds(5);

    @Mixin
    DomainJars domainJars = new DomainJars();

    @Option(names = "--repair", description = "write the recomputed values and the stream position into the "
            + "differing and behind derived items")
    boolean repair;

    @Option(names = "--allow-unknown-types", description = "repair even when items of entity types no loaded domain "
            + "declares are present: base items taken as contributing nothing (they are not Tally's), derived ones "
            + "left as they are")
    boolean allowUnknownTypes;

    @Option(names = "--shards", paramLabel = "VARIABLE=N", mapFallbackValue = "",
            description = "a shard count of the deployment, as its functions' environment sets it (GLOBAL_SHARDS=8; "
                    + "repeat for each one that is not its default): the settings the loaded domains declare")
    Map<String, String> shards = new LinkedHashMap<>();

    /** The options before {@code --shards}, kept so that a runbook written for them still runs; not in the help. */
    @Option(names = "--selector-shards", paramLabel = "N", hidden = true)
    void selectorShards(String count) {
        shards.put("SELECTOR_SHARDS", count);
    }

    @Option(names = "--status-shards", paramLabel = "N", hidden = true)
    void statusShards(String count) {
        shards.put("STATUS_SHARDS", count);
    }

    @Option(names = "--global-shards", paramLabel = "N", hidden = true)
    void globalShards(String count) {
        shards.put("GLOBAL_SHARDS", count);
    }

    @Option(names = "--segments", paramLabel = "N", defaultValue = "4",
            description = "parallel scan segments (default: ${DEFAULT-VALUE})")
    int segments;

    @Option(names = "--stream-readers", paramLabel = "N", defaultValue = "" + Rebuilder.DEFAULT_STREAM_READERS,
            description = "stream shards read at the same time, each line of shards in order (default: "
                    + "${DEFAULT-VALUE})")
    int streamReaders;

    @Override
    int run(TableConnection.Clients clients, PrintWriter out, PrintWriter err) {
        if (streamReaders < 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--stream-readers must be at least 1");
        }
        DomainRegistry domains;
        try {
            domains = domainJars.registry();
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        ShardSettings settings = shardSettings(domains);
        Rebuilder rebuilder = new Rebuilder(clients.dynamo(), clients.streams(), table.tableName,
                domains.derivations(settings), segments)
                .withStreamSettle(table.aws ? AWS_STREAM_SETTLE : Duration.ZERO)
                .withStreamReaders(streamReaders)
                .withCascades(CascadeRunner.overTable(clients.dynamo(), table.tableName))
                .withUnknownTypesAllowed(allowUnknownTypes);
        err.println((repair ? "repairing " : "verifying ") + table.describe());
        Progress progress = new Progress(err);
        if (repair) {
            RepairReport report;
            try {
                report = rebuilder.repair(progress);
            } catch (Rebuilder.UnknownEntityTypes e) {
                progress.done();
                out.println("nothing repaired: the table holds items of entity types no loaded domain declares, and"
                        + " the figures they feed would be written without them:");
                list(counts(e.types()), out);
                out.println("pass each domain's jar with --domain-jar, or --allow-unknown-types if they are not "
                        + "Tally's items");
                return UNREADABLE;
            }
            progress.done();
            return repaired(report, out);
        }
        VerificationReport report = rebuilder.verify(progress);
        progress.done();
        summary(report, out);
        if (report.unreadableItems() > 0 || !report.undeclaredDerivedTypes().isEmpty()) {
            if (!report.differences().isEmpty()) {
                out.println(report.differences().size() + " differing attributes (some may stem from the items "
                        + "above):");
                list(report.differences(), out);
            }
            out.println("derived data not verified whole: the items above are not counted or compared");
            return UNREADABLE;
        }
        if (report.isExact()) {
            out.println("derived data is exact");
            return 0;
        }
        if (report.differences().isEmpty() && report.behindItems() > 0) {
            out.println("no differences in the derived items caught up with the position; run again when the "
                    + "stream processor has drained");
            return BEHIND;
        }
        if (report.differences().isEmpty()) {
            out.println("derived items are exact, but cascades are undone: run verify --repair");
            return DIFFERENCES;
        }
        out.println(report.differences().size() + " differing attributes:");
        list(report.differences(), out);
        return DIFFERENCES;
    }

    private static int repaired(RepairReport report, PrintWriter out) {
        summary(report.found(), out);
        if (!report.found().differences().isEmpty()) {
            out.println(report.found().differences().size() + " differing attributes found:");
            list(report.found().differences(), out);
        }
        if (report.cascaded() > 0) {
            out.println("ran the undone cascades: removed " + report.cascaded() + " base items");
        }
        out.println("repaired: wrote " + report.written() + " derived items with their content and watermarks at "
                + "the stream position");
        if (report.isComplete()) {
            return 0;
        }
        if (!report.refused().isEmpty()) {
            out.println(report.refused().size() + " derived items refused: a stream processor applied records past "
                    + "the position to them meanwhile. Pause it (on AWS: disable the event source mapping) and run "
                    + "verify --repair again:");
            list(report.refused(), out);
        }
        if (!report.uncertain().isEmpty()) {
            out.println(report.uncertain().size() + " derived items uncertain: a shard created during the repair "
                    + "changes them. Pause the stream processor and run verify --repair again:");
            list(report.uncertain(), out);
        }
        if (!report.failed().isEmpty()) {
            out.println(report.failed().size() + " derived items not written: DynamoDB did not take their repair"
                    + " (the others were repaired). Fix the cause, then run verify --repair again:");
            list(report.failed().stream().map(failure -> failure.key().pk() + " / " + failure.key().sk() + ": "
                    + failure.reason()).toList(), out);
        }
        return INCOMPLETE;
    }

    private static void summary(VerificationReport report, PrintWriter out) {
        out.println(report.baseItems() + " base items, " + report.derivedItems() + " derived items, "
                + report.unreadableItems() + " unreadable base items");
        if (!report.unknownTypes().isEmpty()) {
            out.println("base items of entity types no loaded domain declares (pass each domain's jar with "
                    + "--domain-jar):");
            list(counts(report.unknownTypes()), out);
        }
        if (!report.undeclaredDerivedTypes().isEmpty()) {
            out.println("derived items of types no loaded domain declares (its jar left out, or a domain removed "
                    + "since; not compared):");
            list(counts(report.undeclaredDerivedTypes()), out);
        }
        if (!report.unreadableTypes().isEmpty()) {
            out.println("base items their domain cannot read (the stream processor dead-letters their records too):");
            list(counts(report.unreadableTypes()), out);
        }
        out.println("stream position: " + report.position().describe());
        if (report.behindItems() > 0) {
            out.println(report.behindItems() + " derived items behind the stream (records up to the position not "
                    + "applied yet): not compared");
        }
        if (!report.undoneCascades().isEmpty()) {
            out.println(report.undoneCascades().size() + " cascades undone (their owner was removed without them"
                    + " running, or its removal is not processed yet):");
            list(report.undoneCascades(), out);
        }
    }

    private static List<String> counts(Map<String, Long> byType) {
        return byType.entrySet().stream().map(entry -> entry.getKey() + " (" + entry.getValue() + ")").toList();
    }

    private static void list(List<?> items, PrintWriter out) {
        items.stream().limit(SHOWN).map(item -> item instanceof Key key ? key.pk() + " / " + key.sk() : String.valueOf(item))
                .forEach(item -> out.println("  " + item));
        if (items.size() > SHOWN) {
            out.println("  ... and " + (items.size() - SHOWN) + " more");
        }
    }

    /** The counts of {@code --shards}, each a setting a loaded domain declares and a whole number 1..100. */
    private ShardSettings shardSettings(DomainRegistry domains) {
        ShardSettings settings = ShardSettings.DEFAULTS;
        for (Map.Entry<String, String> given : shards.entrySet()) {
            ShardSetting setting = domains.shardSettings().stream()
                    .filter(declared -> declared.variable().equals(given.getKey())).findFirst()
                    .orElseThrow(() -> new picocli.CommandLine.ParameterException(spec.commandLine(), "--shards "
                            + given.getKey() + ": no loaded domain declares it; the settings: " + domains
                            .shardSettings().stream().map(ShardSetting::variable).toList()));
            try {
                settings = settings.with(setting, Integer.parseInt(given.getValue().trim()));
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--shards " + given.getKey()
                        + " must be a whole number 1.." + ShardSettings.MAX + ", not '" + given.getValue() + "'");
            }
        }
        return settings;
    }
}
