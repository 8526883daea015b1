package io.tally.core.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;

/**
 * The deployment's stage as a tag of every meter of a function, and so a dimension of every metric it flushes
 * ({@link EmfMetricsFlusher}): two stages deployed in one account and Region then have metrics, alarms and dashboard
 * widgets of their own. The template sets {@value #ENV} to its {@code Stage} parameter on every function; without it
 * (locally) the meters carry no stage.
 */
public final class StageTag {
    /** The environment variable that names the stage. */
    public static final String ENV = "STAGE";
    /** The tag, and the CloudWatch dimension. */
    public static final String KEY = "Stage";

    private StageTag() {
    }

    /**
     * Tags every meter of {@code registry} with the stage {@code env} names, if any.
     *
     * @throws IllegalStateException when the registry already has meters: a common tag reaches only the meters
     *                               registered after it, so the others would miss the dimension
     */
    public static <R extends MeterRegistry> R apply(R registry, Map<String, String> env) {
        String stage = env.get(ENV);
        if (stage == null || stage.isBlank()) {
            return registry;
        }
        if (!registry.getMeters().isEmpty()) {
            throw new IllegalStateException("the stage must be tagged before any meter is registered, not after "
                    + registry.getMeters().size());
        }
        registry.config().commonTags(KEY, stage.trim());
        return registry;
    }
}
