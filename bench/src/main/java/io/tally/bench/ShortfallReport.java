package io.tally.bench;

import java.util.Comparator;
import java.util.stream.Collectors;

/**
 * The "Targets not met, and the records/s ratios" section: for each replay target the run missed, and each records/s
 * ratio under what used to be its target (now information: DynamoDB Local bounds it), the figures of the same run
 * that say why.
 * Throughput: the CPU each record may use at the target rate on this machine's cores, against what DynamoDB Local
 * alone used per record of Tally's replay; and the ceilings of what DynamoDB Local does one at a time (its SQLite
 * thread, its table write lock: {@link TableLockSampler}) against the target rate. Write units: how many units per
 * record the target allows, and where Tally's went.
 */
final class ShortfallReport {
    private ShortfallReport() {
    }

    static String section(Results results) {
        int cores = results.environment().cores();
        MarkdownTable throughput = new MarkdownTable().left("Workload")
                .right("target", "target records/s", "CPU budget per record (ms)", "Tally: cores busy",
                        "Tally: CPU per record (ms)", "of which DynamoDB Local (ms)")
                .left("DynamoDB Local alone over the budget");
        MarkdownTable serial = new MarkdownTable().left("Workload")
                .right("target records/s", "Tally records/s", "SQLite thread (ms/record)",
                        "SQLite thread's ceiling (records/s)", "table write lock held", "held or awaited (occupied)",
                        "writes waiting (mean)", "the lock's ceiling (records/s)")
                .left("ceiling below the target");
        MarkdownTable units = new MarkdownTable().left("Workload")
                .right("target", "allowed write units/record", "Tally's", "over by")
                .left("Tally's largest item types");
        for (Results.WorkloadResult w : results.workloads()) {
            double minThroughput = w.minThroughputRatio();
            double maxUnits = w.maxWriteUnitRatio();
            Results.Cpu cpu = w.tally().cpu();
            if (w.throughputRatio() < minThroughput && cpu != null) {
                double targetRate = minThroughput * w.naive().recordsPerSec();
                double budgetMs = 1000.0 * cores / targetRate;
                double tallyMs = 1000.0 * cpu.processSeconds() / w.tally().records();
                double dynamoMs = 1000.0 * cpu.dynamoDbLocalSeconds() / w.tally().records();
                double sqliteMs = 1000.0 * cpu.sqliteSeconds() / w.tally().records();
                throughput.row(w.name(), Report.fmt(minThroughput, 0) + "x", Report.fmt(targetRate, 0),
                        Report.fmt(budgetMs, 2), Report.fmt(cpu.coresBusy(), 2), Report.fmt(tallyMs, 2),
                        Report.fmt(dynamoMs, 2), dynamoMs > budgetMs ? "yes" : "no");
                serialRow(serial, w, targetRate, sqliteMs);
            }
            if (w.writeUnitRatio() > maxUnits) {
                double allowed = maxUnits * w.naive().writeUnitsPerRecord();
                double tally = w.tally().writeUnitsPerRecord();
                int records = w.tally().records();
                String largest = w.tally().writeUnitBreakdown().stream()
                        .sorted(Comparator.comparingDouble(Results.WriteUnitShare::units).reversed()).limit(3)
                        .map(share -> share.itemType() + " " + Report.fmt(share.units() / records, 3))
                        .collect(Collectors.joining(", "));
                units.row(w.name(), Report.fmt(maxUnits, 2) + "x", Report.fmt(allowed, 3), Report.fmt(tally, 3),
                        Report.fmt(tally - allowed, 3) + " (" + Report.fmt(100 * (tally - allowed) / tally, 0) + "%)",
                        largest);
            }
        }
        if (throughput.isEmpty() && units.isEmpty()) {
            return "";
        }
        boolean profiled = results.workloads().stream().anyMatch(w -> !CpuReport.rows(w).isEmpty());
        StringBuilder md = new StringBuilder("## Targets not met, and the records/s ratios: why\n\n");
        if (!throughput.isEmpty()) {
            md.append("The records/s ratios against the naive processor were targets until the AWS-latency mode measured"
                    + " throughput where AWS is the question; the rates they asked for (\"target\" below) are kept as"
                    + " the yardstick of what DynamoDB Local allows here.\n\n");
            md.append("**Records/s: the CPU.** A machine with ").append(cores).append(" cores has ").append(cores)
                    .append(" CPU seconds a second, so at the target rate each record may take at most the budget "
                            + "below, for DynamoDB Local and the processor together (they share the process: the "
                            + "emulator's threads are measured per thread in the same replay). Where DynamoDB Local "
                            + "alone used more CPU per record of Tally's replay than the budget, the target cannot be "
                            + "reached on this machine by making the engine cheaper, only by sending fewer requests "
                            + "per record. Where it did not, the CPU does not rule the target out; with cores idle, "
                            + "something else sets the pace" + (profiled ? " (\"Where the CPU goes\" splits the CPU "
                            + "Tally did use)" : "") + ". The naive processor is sequential: its rate is bound by "
                            + "the latency of one request at a time, not by the cores.\n\n");
            md.append(throughput.render()).append('\n');
            md.append("**Records/s: what DynamoDB Local does one at a time.** DynamoDB Local runs every SQLite "
                    + "statement on one thread, and it runs each write to a table under that table's write lock "
                    + "(`LocalDBAccess$WriteLockWithTimeout`), held on its HTTP thread for the whole write, the SQLite "
                    + "statements it waits for included: writes to one table run one at a time, whatever the "
                    + "client's concurrency, and a single-table design sends every derived write to one table. "
                    + "DynamoDB has neither: it spreads a table's items over partitions that write in parallel. "
                    + "The SQLite thread's CPU per record caps the rate at its ceiling; the lock caps it lower, as it "
                    + "is also held while the HTTP thread works and while the SQLite thread hands results back. A "
                    + "sampler read DynamoDB Local's HTTP threads' stacks every 5 ms during Tally's replay: *held* is "
                    + "the share of samples in which a write held the lock, *occupied* the share in which one held or "
                    + "waited for it (occupied but not held: the lock was passing from one write to the next). The "
                    + "lock's ceiling is Tally's rate divided by the occupied share, the rate with the lock never "
                    + "left idle; where it is under the target rate, Tally cannot reach the target against DynamoDB "
                    + "Local with the requests it sends per record, and more concurrent writes only lengthen the "
                    + "queue. Sending fewer requests per record raises it: \"Larger batches\" below.\n\n");
            md.append(serial.render()).append('\n');
        }
        if (!units.isEmpty()) {
            md.append("**Write units.** The write units per record the target allows, Tally's, and the largest item "
                    + "types of Tally's writes (units per record; \"Where the write units go\" has them all). Tally "
                    + "writes a derived item at most once per batch it changes in; documents (post projections, "
                    + "selector entries) cost both processors about one unit per change of their source, and each "
                    + "user's stats item one unit per batch that touches the user. What is left above the target is "
                    + "therefore about one write per user per batch: cutting it means writing counters less often than "
                    + "once per batch, that is larger batches (or summing counters across batches), which hold derived "
                    + "data back and so work against the freshness target"
                    + (results.workloads().stream().anyMatch(w -> w.tallyLargeBatch() != null)
                        ? ": \"Larger batches\" below measures both sides in this run" : "") + ".\n\n");
            md.append(units.render()).append('\n');
        }
        return md.toString();
    }

    private static void serialRow(MarkdownTable serial, Results.WorkloadResult w, double targetRate, double sqliteMs) {
        Results.TableLock lock = w.tally().tableLock();
        double rate = w.tally().recordsPerSec();
        double lockCeiling = lock == null ? 0 : lock.ceiling(rate);
        double sqliteCeiling = sqliteMs > 0 ? 1000.0 / sqliteMs : 0;
        double ceiling = lockCeiling > 0 ? lockCeiling : sqliteCeiling;
        serial.row(w.name(), Report.fmt(targetRate, 0), Report.fmt(rate, 0),
                sqliteMs > 0 ? Report.fmt(sqliteMs, 2) : "n/a",
                sqliteCeiling > 0 ? Report.fmt(sqliteCeiling, 0) : "n/a",
                lock == null ? "n/a" : Report.fmt(100 * lock.held(), 0) + "%",
                lock == null ? "n/a" : Report.fmt(100 * lock.occupied(), 0) + "%",
                lock == null ? "n/a" : Report.fmt(lock.meanWaiting(), 1),
                lockCeiling > 0 ? Report.fmt(lockCeiling, 0) : "n/a",
                ceiling <= 0 ? "n/a" : ceiling < targetRate ? "yes" : "no");
    }
}
