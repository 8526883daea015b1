package io.tally.bench;

import java.util.List;

/** Everything one run measured; serialized as-is to JSON and rendered to markdown by {@link Report}. */
record Results(Environment environment, List<WorkloadResult> workloads, Freshness freshness, Load load,
               Writer writer, Freshness largeBatchFreshness) {

    /** A run without the load and writer sections (and a run's JSON written before there were some). */
    Results(Environment environment, List<WorkloadResult> workloads, Freshness freshness) {
        this(environment, workloads, freshness, null, null, null);
    }

    /** A run without the freshness of large batches ({@link LargeBatchReport}). */
    Results(Environment environment, List<WorkloadResult> workloads, Freshness freshness, Load load, Writer writer) {
        this(environment, workloads, freshness, load, writer, null);
    }

    record Environment(String date, String command, int cores, String jvm, String os, long maxHeapMb,
                       String dynamoDbLocal, int recordsRequested, long seed, int batchSize, int warmUpRecords) {
    }

    /**
     * @param baseWrites        base-item writes sent to the recording table
     * @param baseWriteThreads  client threads that sent them (BatchWriteItem, 25 per request)
     * @param baseWritesPerSec  their rate
     * @param records           stream records read back, the input of both processors
     * @param getRecordsPerSec  how fast GetRecords drained them
     * @param baseItems         base items in the table at the end (what the oracle recomputes from)
     * @param tallyLargeBatch   Tally's replay of the same records in batches of {@link LargeBatchReport#BATCH_SIZE}
     *                          (null in a run's JSON written before there was one)
     * @param floor             Tally's write units against the least any processor must spend on the same batches
     *                          ({@link FloorRun}; null when not measured)
     */
    record WorkloadResult(String name, double skew, int baseWrites, int baseWriteThreads, double baseWritesPerSec,
                          int records, int shards, double getRecordsPerSec, long baseItems,
                          ProcessorResult tally, ProcessorResult naive, ProcessorResult tallyLargeBatch,
                          Floor floor) {
        /** Without the floor ({@link FloorRun}). */
        WorkloadResult(String name, double skew, int baseWrites, int baseWriteThreads, double baseWritesPerSec,
                       int records, int shards, double getRecordsPerSec, long baseItems,
                       ProcessorResult tally, ProcessorResult naive, ProcessorResult tallyLargeBatch) {
            this(name, skew, baseWrites, baseWriteThreads, baseWritesPerSec, records, shards, getRecordsPerSec,
                    baseItems, tally, naive, tallyLargeBatch, null);
        }

        /** Without Tally's replay in large batches ({@link LargeBatchReport}). */
        WorkloadResult(String name, double skew, int baseWrites, int baseWriteThreads, double baseWritesPerSec,
                       int records, int shards, double getRecordsPerSec, long baseItems,
                       ProcessorResult tally, ProcessorResult naive) {
            this(name, skew, baseWrites, baseWriteThreads, baseWritesPerSec, records, shards, getRecordsPerSec,
                    baseItems, tally, naive, null);
        }

        /** The records/s ratio this workload's target asks for: skewed workloads ask more than uniform ones. */
        double minThroughputRatio() {
            return skew > 0 ? Report.MIN_THROUGHPUT_RATIO : Report.MIN_UNIFORM_THROUGHPUT_RATIO;
        }

        /** The write-unit ratio this workload's target allows. */
        double maxWriteUnitRatio() {
            return skew > 0 ? Report.MAX_WRITE_UNIT_RATIO : Report.MAX_UNIFORM_WRITE_UNIT_RATIO;
        }

        double throughputRatio() {
            return tally.recordsPerSec() / naive.recordsPerSec();
        }

        double requestRatio() {
            return tally.requestsPerRecord() / naive.requestsPerRecord();
        }

        double writeUnitRatio() {
            return tally.writeUnitsPerRecord() / naive.writeUnitsPerRecord();
        }
    }

    /**
     * @param writeUnitsReported     whether DynamoDB Local answered ReturnConsumedCapacity for every write
     * @param exactAfterRun          the oracle found no difference after the replay
     * @param differencesAfterRun    differing derived attributes after the replay
     * @param differencesAfterDuplicate differing derived attributes after one batch was delivered a second time
     */
    record ProcessorResult(String processor, int records, double seconds, double recordsPerSec, long requests,
                           long failedRequests, double requestsPerRecord, double writeUnits,
                           double writeUnitsPerRecord, boolean writeUnitsReported, long peakHeapMb,
                           boolean exactAfterRun, int differencesAfterRun, int duplicatedBatchRecords,
                           int differencesAfterDuplicate, int driftedItemsAfterDuplicate,
                           List<WriteUnitShare> writeUnitBreakdown, Cpu cpu, Profile profile,
                           TableLock tableLock) {
        /** Without the table lock's use (a run's JSON written before it was sampled). */
        ProcessorResult(String processor, int records, double seconds, double recordsPerSec, long requests,
                        long failedRequests, double requestsPerRecord, double writeUnits,
                        double writeUnitsPerRecord, boolean writeUnitsReported, long peakHeapMb,
                        boolean exactAfterRun, int differencesAfterRun, int duplicatedBatchRecords,
                        int differencesAfterDuplicate, int driftedItemsAfterDuplicate,
                        List<WriteUnitShare> writeUnitBreakdown, Cpu cpu, Profile profile) {
            this(processor, records, seconds, recordsPerSec, requests, failedRequests, requestsPerRecord, writeUnits,
                    writeUnitsPerRecord, writeUnitsReported, peakHeapMb, exactAfterRun, differencesAfterRun,
                    duplicatedBatchRecords, differencesAfterDuplicate, driftedItemsAfterDuplicate, writeUnitBreakdown,
                    cpu, profile, null);
        }
    }

    /**
     * DynamoDB Local's table write lock during a replay ({@link TableLockSampler}): the share of samples in which a
     * write held it, in which a write held or waited for it, and the mean number of writes waiting.
     */
    record TableLock(long samples, double held, double occupied, double meanWaiting) {
        /** The rate the replay would have had with the lock occupied all the time: the most DynamoDB Local allows. */
        double ceiling(double recordsPerSec) {
            return occupied > 0 ? recordsPerSec / occupied : 0;
        }
    }

    /**
     * Where the processor's own threads spent their CPU ({@link Profiler}): execution samples by part of the code, and
     * the hottest methods (the innermost frame outside the JDK).
     *
     * @param samples all samples of the processor's threads
     * @param parts   samples per part, in {@link Profiler#PARTS} order
     * @param methods the hottest methods, most samples first
     */
    record Profile(int samples, List<Share> parts, List<Share> methods) {
    }

    /** Samples filed under one name. */
    record Share(String name, int samples) {
    }

    /**
     * CPU time during a phase ({@link CpuUse}).
     *
     * @param processSeconds        CPU seconds of the whole process (DynamoDB Local runs in it)
     * @param wallSeconds           the phase's wall time
     * @param dynamoDbLocalSeconds  CPU seconds on DynamoDB Local's own threads (HTTP server and SQLite)
     * @param processorSeconds      CPU seconds on the processor's own Java threads (all but DynamoDB Local's and the
     *                              benchmark's samplers); 0 when not measured
     * @param gcSeconds             CPU seconds on the JVM's garbage-collector threads (Linux; else 0)
     * @param jitSeconds            CPU seconds on the JVM's JIT-compiler threads (Linux; else 0)
     * @param sqliteSeconds         of DynamoDB Local's, CPU seconds on the one thread that runs every SQLite statement
     */
    record Cpu(double processSeconds, double wallSeconds, double dynamoDbLocalSeconds, double processorSeconds,
               double gcSeconds, double jitSeconds, double sqliteSeconds) {
        /** Without the processor's and the JVM's threads measured (0: unknown, as in a run before they were). */
        Cpu(double processSeconds, double wallSeconds, double dynamoDbLocalSeconds) {
            this(processSeconds, wallSeconds, dynamoDbLocalSeconds, 0, 0, 0, 0);
        }

        /** Cores kept busy on average: 2 on this machine means the phase was bound by the CPU. */
        double coresBusy() {
            return processSeconds / wallSeconds;
        }

        double dynamoDbLocalShare() {
            return dynamoDbLocalSeconds / processSeconds;
        }
    }

    /**
     * Where one processor's write units went, per item type written: its successful writes and the units each
     * destination charged ({@code table}, or an index by name; DynamoDB Local's
     * {@code ReturnConsumedCapacity=INDEXES}).
     */
    record WriteUnitShare(String itemType, long writes, double units, java.util.Map<String, Double> byDestination) {
    }

    /**
     * Tally's write units against the floor ({@link WriteUnitFloor}) on one replay of a workload in batches of
     * {@code batchSize} ({@link FloorRun}).
     *
     * @param records     records replayed
     * @param batches     batches delivered
     * @param byType      per item type (the shard cursors as {@code ShardCursor})
     */
    record Floor(int records, int batchSize, int batches, List<FloorShare> byType) {
    }

    /**
     * One item type's write units on a floor replay: Tally's, as DynamoDB Local reported them, and the floor's, per
     * destination ({@code table}, or an index by name).
     *
     * @param tallyWrites     Tally's successful single-item writes of the type
     * @param floorWrites     the floor's table writes of the type: items whose content changed, one per batch each
     *                        (the cursors: two per batch)
     * @param unchangedWrites Tally's writes of items whose content the batch left as it was, and their units
     * @param repeatWrites    Tally's writes of an item after its first in the same batch, and their units
     * @param sizeUnits       what Tally's first write of each changed item cost beyond the floor's write of it
     *                        (bookkeeping over a 1 KB boundary, an index written for bookkeeping; negative where
     *                        DynamoDB Local charged less than the published rules); for the cursors, all of Tally's
     *                        units beyond the floor's
     */
    record FloorShare(String itemType, long tallyWrites, double tallyUnits, java.util.Map<String, Double> tallyByDestination,
                      long floorWrites, double floorUnits, java.util.Map<String, Double> floorByDestination,
                      long unchangedWrites, double unchangedUnits, long repeatWrites, double repeatUnits,
                      double sizeUnits) {
    }

    /**
     * @param writerMaxPerSec  PutItem/s of one client thread writing as fast as it can
     * @param targetPerSec     half of it: the steady rate of the measurement
     * @param achievedPerSec   the rate the paced writer kept
     * @param measured         writes whose derived data was seen (puts; deletes carry no marker)
     * @param missing          measured writes never seen processed before the deadline
     * @param batchingWindowSeconds the poller's {@code MaximumBatchingWindowInSeconds}
     * @param invocations      invocations of the stream function (0 in a run's JSON from before they were counted)
     * @param retries          invocations that retried records after a failure
     * @param writeUnitsPerWrite the processor's write units per timed base write (the write units at this rate)
     */
    record Freshness(double writerMaxPerSec, double targetPerSec, double achievedPerSec, double seconds,
                     int writes, int measured, int missing, double p50Ms, double p99Ms, double maxMs,
                     boolean exactAfterRun, int batchingWindowSeconds, long invocations, long retries,
                     double writeUnitsPerWrite) {
    }

    /**
     * The load mode ({@link LoadRun}): the local runner's HTTP front under many concurrent connections.
     *
     * @param shed             503 answers with Retry-After (allowed; the write is not acknowledged)
     * @param unexpected       answers that are neither 2xx nor a 503 with Retry-After, broken connections included
     * @param missing          acknowledged writes not readable after the run
     * @param exactAfterDrain  the rebuild oracle found no difference once the stream had drained
     */
    record Load(int connections, double seconds, long requests, double requestsPerSec, long writesAcknowledged,
                long readsOk, long shed, int unexpected, List<String> unexpectedSamples, double p50Ms, double p99Ms,
                double maxMs, double writeP50Ms, double writeP99Ms, double readP50Ms, double readP99Ms,
                long peakHeapMb, double drainSeconds, int posts, int comments, int items, int missing,
                List<String> missingSamples, boolean exactAfterDrain, int differences) {
        boolean passed() {
            return unexpected == 0 && missing == 0 && exactAfterDrain;
        }
    }

    /**
     * The writer mode ({@link WriterRun}): API requests through the local front and handler against the same
     * DynamoDB calls sent raw, at the same concurrency.
     */
    record Writer(int threads, int requestsPerThread, List<WriterRound> rounds) {
        /** API requests per second through the front, over all rounds. */
        double frontPerSec() {
            return requests() / rounds.stream().mapToDouble(WriterRound::frontSeconds).sum();
        }

        /** The same requests' DynamoDB calls sent raw: requests' worth per second, over all rounds. */
        double rawPerSec() {
            return requests() / rounds.stream().mapToDouble(WriterRound::rawSeconds).sum();
        }

        double ratio() {
            return frontPerSec() / rawPerSec();
        }

        private double requests() {
            return rounds.stream().mapToDouble(WriterRound::requests).sum();
        }
    }

    /**
     * One round of the writer mode.
     *
     * @param requests          API requests sent through the front (all answered 2xx)
     * @param calls             the DynamoDB calls the writer made for them, sent again raw
     * @param callsByOperation  those calls by operation
     * @param frontDrainSeconds after the front half, until the stream pipeline had processed its records
     * @param rawDrainSeconds   the same after the raw half
     * @param frontCpu          CPU during the front half (the clients, the front, the writer, the pipeline and
     *                          DynamoDB Local all run in the benchmark's JVM)
     * @param rawCpu            CPU during the raw half
     * @param frontP50Ms        an API request's latency through the front, as its client saw it
     */
    record WriterRound(int round, int requests, int calls, java.util.Map<String, Integer> callsByOperation,
                       double frontSeconds, double rawSeconds, double frontDrainSeconds, double rawDrainSeconds,
                       Cpu frontCpu, Cpu rawCpu, double frontP50Ms, double frontP99Ms) {
        double ratio() {
            return rawSeconds / frontSeconds;
        }
    }
}
