package io.tally.core.metrics;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.cloudwatchlogs.emf.Constants;
import software.amazon.cloudwatchlogs.emf.exception.InvalidDimensionException;
import software.amazon.cloudwatchlogs.emf.exception.InvalidMetricException;
import software.amazon.cloudwatchlogs.emf.model.DimensionSet;
import software.amazon.cloudwatchlogs.emf.model.MetricsContext;
import software.amazon.cloudwatchlogs.emf.model.Unit;
import software.amazon.cloudwatchlogs.emf.util.Validator;

/**
 * Writes the meters of a Micrometer registry as CloudWatch Embedded Metric Format lines, once at the end of each
 * Lambda invocation; CloudWatch Logs turns the lines written to stdout into metrics, with no API call.
 *
 * <p>One document per tag set (its tags are the document's dimensions), split by the EMF library at 100 metrics.
 * Counters report their increase since the previous flush, timers and distribution summaries
 * {@code <name>.count}, {@code <name>.sum} and {@code <name>.max} since the previous flush, gauges their value.
 * The registry must count cumulatively (a {@code SimpleMeterRegistry}'s default), since the increases are
 * computed here.
 *
 * <p>Built on the EMF library's {@link MetricsContext} rather than its {@code MetricsLogger}: the logger
 * detects its environment and picks its own sink, while a context only serialises, so the lines go to the
 * given stream in Lambda and in tests alike.
 */
public final class EmfMetricsFlusher {
    public static final String DEFAULT_NAMESPACE = "Tally";

    private static final Logger LOG = LoggerFactory.getLogger(EmfMetricsFlusher.class);

    private final MeterRegistry registry;
    private final PrintStream out;
    private final String namespace;
    private final Clock clock;
    /** The cumulative values (count, then total) each meter had at the previous flush. */
    private final Map<Meter.Id, double[]> previous = new HashMap<>();

    public EmfMetricsFlusher(MeterRegistry registry, PrintStream out) {
        this(registry, out, DEFAULT_NAMESPACE);
    }

    public EmfMetricsFlusher(MeterRegistry registry, PrintStream out, String namespace) {
        this(registry, out, namespace, Clock.systemUTC());
    }

    EmfMetricsFlusher(MeterRegistry registry, PrintStream out, String namespace, Clock clock) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.out = Objects.requireNonNull(out, "out");
        Validator.validateNamespace(namespace);
        this.namespace = namespace;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Writes one line per document; metrics must never fail an invocation, so problems are logged only. */
    public synchronized void flush() {
        Instant timestamp = clock.instant();
        Map<List<Tag>, MetricsContext> documents = new LinkedHashMap<>();
        List<Meter> meters = new ArrayList<>(registry.getMeters());
        meters.sort(Comparator.comparing(meter -> meter.getId().getName()));
        for (Meter meter : meters) {
            for (Datum datum : data(meter)) {
                try {
                    documents.computeIfAbsent(meter.getId().getTags(), tags -> document(tags, timestamp))
                            .putMetric(datum.name(), datum.value(), datum.unit());
                } catch (InvalidMetricException e) {
                    LOG.warn("Metric {} skipped: {}", datum.name(), e.getMessage());
                }
            }
        }
        for (MetricsContext document : documents.values()) {
            try {
                document.serialize().forEach(out::println);
            } catch (JsonProcessingException e) {
                LOG.error("EMF document not written", e);
            }
        }
        out.flush();
    }

    private MetricsContext document(List<Tag> tags, Instant timestamp) {
        MetricsContext document = new MetricsContext();
        document.setNamespace(namespace);
        document.setTimestamp(timestamp);
        DimensionSet dimensions = new DimensionSet();
        for (Tag tag : tags) {
            // CloudWatch takes at most 30 dimensions per set and only printable ASCII; a tag beyond that still
            // reaches Logs Insights as a property, though meters differing only in it share one metric.
            if (dimensions.getDimensionKeys().size() < Constants.MAX_DIMENSION_SET_SIZE) {
                try {
                    dimensions.addDimension(tag.getKey(), tag.getValue());
                    continue;
                } catch (InvalidDimensionException e) {
                    LOG.debug("Tag {} kept as a property: {}", tag.getKey(), e.getMessage());
                }
            }
            document.putProperty(tag.getKey(), tag.getValue());
        }
        document.setDimensions(dimensions);
        return document;
    }

    private List<Datum> data(Meter meter) {
        Meter.Id id = meter.getId();
        String name = id.getName();
        return meter.match(
                gauge -> gauge(name, gauge.value(), unit(id, Unit.NONE)),
                counter -> counted(id, counter.count()),
                timer -> distribution(id, timer.count(), timer.totalTime(TimeUnit.MILLISECONDS),
                        timer.max(TimeUnit.MILLISECONDS), Unit.MILLISECONDS),
                summary -> distribution(id, summary.count(), summary.totalAmount(), summary.max(),
                        unit(id, Unit.NONE)),
                longTask -> List.of(new Datum(name + ".active", longTask.activeTasks(), Unit.COUNT),
                        new Datum(name + ".duration", longTask.duration(TimeUnit.MILLISECONDS), Unit.MILLISECONDS)),
                timeGauge -> gauge(name, timeGauge.value(TimeUnit.MILLISECONDS), Unit.MILLISECONDS),
                functionCounter -> counted(id, functionCounter.count()),
                functionTimer -> distribution(id, functionTimer.count(),
                        functionTimer.totalTime(TimeUnit.MILLISECONDS), Double.NaN, Unit.MILLISECONDS),
                other -> {
                    List<Datum> data = new ArrayList<>();
                    other.measure().forEach(measurement -> data.addAll(gauge(
                            name + "." + measurement.getStatistic().getTagValueRepresentation(),
                            measurement.getValue(), Unit.NONE)));
                    return data;
                });
    }

    private static List<Datum> gauge(String name, double value, Unit unit) {
        // A gauge whose object was garbage-collected reads NaN, which EMF cannot carry.
        return Double.isFinite(value) ? List.of(new Datum(name, value, unit)) : List.of();
    }

    private List<Datum> counted(Meter.Id id, double count) {
        double increase = increases(id, count)[0];
        return increase == 0 ? List.of() : List.of(new Datum(id.getName(), increase, unit(id, Unit.COUNT)));
    }

    private List<Datum> distribution(Meter.Id id, double count, double total, double max, Unit unit) {
        double[] increases = increases(id, count, total);
        if (increases[0] == 0) {
            return List.of();
        }
        List<Datum> data = new ArrayList<>(3);
        data.add(new Datum(id.getName() + ".count", increases[0], Unit.COUNT));
        data.add(new Datum(id.getName() + ".sum", increases[1], unit));
        if (Double.isFinite(max)) {
            // Micrometer's max spans a sliding window (two minutes by default), not the time since the previous
            // flush; no sample of this interval exceeds the interval's sum, so that bound is the tighter one.
            data.add(new Datum(id.getName() + ".max", Math.min(max, increases[1]), unit));
        }
        return data;
    }

    private double[] increases(Meter.Id id, double... cumulative) {
        double[] before = previous.put(id, cumulative);
        double[] increases = cumulative.clone();
        // A count below the previous one means the meter was removed and registered anew, starting from zero.
        if (before != null && cumulative[0] >= before[0]) {
            for (int i = 0; i < cumulative.length; i++) {
                increases[i] -= before[i];
            }
        }
        return increases;
    }

    private static Unit unit(Meter.Id id, Unit fallback) {
        String baseUnit = id.getBaseUnit();
        if (baseUnit == null) {
            return fallback;
        }
        return switch (baseUnit) {
            case "bytes" -> Unit.BYTES;
            case "seconds" -> Unit.SECONDS;
            case "milliseconds" -> Unit.MILLISECONDS;
            case "microseconds" -> Unit.MICROSECONDS;
            case "percent" -> Unit.PERCENT;
            default -> fallback;
        };
    }

    private record Datum(String name, double value, Unit unit) {}
}
