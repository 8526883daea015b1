package io.tally.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The load mode's bookkeeping ({@link LoadRun}): what an answer counts as, and one connection's figures, merged into
 * the run's.
 */
final class LoadTally {
    /** What one answer means for the run. */
    enum Outcome {
        /** 2xx: acknowledged. */
        OK,
        /** 503 with Retry-After: shed, allowed, not acknowledged. */
        SHED,
        /** Anything else, a broken connection included: a failure of the run. */
        UNEXPECTED
    }

    final List<Double> latenciesMs = new ArrayList<>();
    final List<Double> writeLatenciesMs = new ArrayList<>();
    final List<Double> readLatenciesMs = new ArrayList<>();
    long requests;
    long writesAcknowledged;
    long readsOk;
    long shed;
    final List<String> unexpected = new ArrayList<>();

    static Outcome classify(int status, boolean hasRetryAfter) {
        if (status >= 200 && status < 300) {
            return Outcome.OK;
        }
        if (status == 503 && hasRetryAfter) {
            return Outcome.SHED;
        }
        return Outcome.UNEXPECTED;
    }

    void record(boolean write, double ms, Outcome outcome, String what) {
        requests++;
        latenciesMs.add(ms);
        (write ? writeLatenciesMs : readLatenciesMs).add(ms);
        switch (outcome) {
            case OK -> {
                if (write) {
                    writesAcknowledged++;
                } else {
                    readsOk++;
                }
            }
            case SHED -> shed++;
            case UNEXPECTED -> unexpected.add(what);
        }
    }

    static LoadTally merge(List<LoadTally> tallies) {
        LoadTally all = new LoadTally();
        for (LoadTally t : tallies) {
            all.latenciesMs.addAll(t.latenciesMs);
            all.writeLatenciesMs.addAll(t.writeLatenciesMs);
            all.readLatenciesMs.addAll(t.readLatenciesMs);
            all.requests += t.requests;
            all.writesAcknowledged += t.writesAcknowledged;
            all.readsOk += t.readsOk;
            all.shed += t.shed;
            all.unexpected.addAll(t.unexpected);
        }
        return all;
    }
}
