package io.tally.bench.aws;

import java.util.Map;
import java.util.TreeMap;

/**
 * What the calls to each service cost in wall-clock time: per service, the time during which at least one of its
 * calls was in flight (calls made together count once), and per operation, how the local service's own time compared
 * with the latency the model drew: when DynamoDB Local took longer than the draw, the call took the local time, and
 * the figure measures the emulator rather than AWS.
 */
public final class CallTimes {
    /** The pseudo-service whose union covers the calls of every service. */
    public static final String ANY = "any service";

    private final Map<String, Union> services = new TreeMap<>();
    private final Map<String, Calls> operations = new TreeMap<>();

    /** One service's time with a call in flight. */
    private static final class Union {
        int inFlight;
        long since;
        long nanos;
    }

    private static final class Calls {
        long count;
        long modelledNanos;
        long localNanos;
        long beyondModel;
        long beyondNanos;
    }

    /**
     * @param calls        calls made (attempts: an attempt the SDK retries counts again)
     * @param modelledMillis the latency the model drew, summed
     * @param localMillis  the local service's own time, summed
     * @param beyondModel  calls whose local time exceeded their draw
     * @param beyondMillis the time beyond the draw, summed over those calls
     */
    public record OperationFigures(String operation, long calls, double modelledMillis, double localMillis,
                                   long beyondModel, double beyondMillis) {
    }

    /** A copy of the figures so far: per service its union time in ms, per operation its calls. */
    public record Snapshot(Map<String, Double> serviceMillis, Map<String, OperationFigures> operations) {
        public double serviceMillis(String service) {
            return serviceMillis.getOrDefault(service, 0d);
        }

        /** These figures less those of an earlier snapshot. */
        public Snapshot minus(Snapshot earlier) {
            Map<String, Double> services = new TreeMap<>(serviceMillis);
            earlier.serviceMillis.forEach((service, millis) -> services.merge(service, -millis, Double::sum));
            Map<String, OperationFigures> calls = new TreeMap<>();
            operations.forEach((name, now) -> {
                OperationFigures before = earlier.operations.get(name);
                calls.put(name, before == null ? now : new OperationFigures(name, now.calls - before.calls,
                        now.modelledMillis - before.modelledMillis, now.localMillis - before.localMillis,
                        now.beyondModel - before.beyondModel, now.beyondMillis - before.beyondMillis));
            });
            return new Snapshot(Map.copyOf(services), Map.copyOf(calls));
        }

        /** The operations of one service (named {@code service/operation}). */
        public Map<String, OperationFigures> of(String service) {
            Map<String, OperationFigures> ofService = new TreeMap<>();
            operations.forEach((name, figures) -> {
                if (name.startsWith(service + "/")) {
                    ofService.put(name, figures);
                }
            });
            return ofService;
        }
    }

    synchronized void started(String service, long nanoTime) {
        start(service, nanoTime);
        start(ANY, nanoTime);
    }

    synchronized void ended(String service, long nanoTime) {
        end(service, nanoTime);
        end(ANY, nanoTime);
    }

    private void start(String service, long nanoTime) {
        Union union = services.computeIfAbsent(service, name -> new Union());
        if (union.inFlight++ == 0) {
            union.since = nanoTime;
        }
    }

    private void end(String service, long nanoTime) {
        Union union = services.get(service);
        if (union == null || union.inFlight == 0) {
            return;
        }
        if (--union.inFlight == 0) {
            union.nanos += nanoTime - union.since;
        }
    }

    synchronized void attempt(String service, String operation, long localNanos, long modelledNanos) {
        Calls calls = operations.computeIfAbsent(service + "/" + operation, name -> new Calls());
        calls.count++;
        calls.localNanos += localNanos;
        calls.modelledNanos += modelledNanos;
        if (localNanos > modelledNanos) {
            calls.beyondModel++;
            calls.beyondNanos += localNanos - modelledNanos;
        }
    }

    /** The figures so far; a service with calls in flight counts them up to {@code nanoTime}. */
    public synchronized Snapshot snapshot(long nanoTime) {
        Map<String, Double> serviceMillis = new TreeMap<>();
        services.forEach((service, union) -> serviceMillis.put(service,
                (union.nanos + (union.inFlight > 0 ? nanoTime - union.since : 0)) / 1e6));
        Map<String, OperationFigures> figures = new TreeMap<>();
        operations.forEach((name, calls) -> figures.put(name, new OperationFigures(name, calls.count,
                calls.modelledNanos / 1e6, calls.localNanos / 1e6, calls.beyondModel, calls.beyondNanos / 1e6)));
        return new Snapshot(Map.copyOf(serviceMillis), Map.copyOf(figures));
    }
}
