package io.tally.bench.model;

import io.tally.core.template.DeploymentTemplate;
import io.tally.local.stream.EsmSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the CPU-confined model runs ({@link ModelRun}): the plan of its runs, and what it takes from the deployment
 * template (the stream processor's memory, window and JIT flags).
 */
public final class ModelPlans {
    /**
     * One run to make.
     *
     * @param share 0 for a backlog
     */
    public record Plan(String group, int memory, String jit, double window, double share, int repeat) {
    }

    /** JIT settings by name: tiered compilation stopped at C1, and full tiered compilation (the JVM's default). */
    public static final String C1 = "c1";
    public static final String TIERED = "tiered";
    /** The {@code JAVA_TOOL_OPTIONS} of each JIT setting. */
    static final Map<String, String> JIT_OPTIONS = Map.of(C1, "-XX:+TieredCompilation -XX:TieredStopAtLevel=1",
            TIERED, "-XX:+TieredCompilation -XX:TieredStopAtLevel=4");

    /** The shares of a partition the cost frontier runs at. */
    static final List<Double> FRONTIER_SHARES = List.of(0.1, 0.5, 0.8);

    /**
     * The runs of a full model: each share at the template's memory and window, every repeat (repeats interleaved,
     * so that the machine's drift spreads over all shares); the cost frontier (each window at 10, 50 and 80% of a
     * partition, the template's window among them); the tuning backlogs (each memory with C1 only and with full
     * tiering, side by side, each repeat).
     */
    public static List<Plan> plans(List<Double> shares, int repeats, List<Double> windows, List<Integer> memories,
                                   int tuningRepeats) {
        DeploymentTemplate template = DeploymentTemplate.bundled();
        int memory = defaultMemory(template);
        String jit = jit(javaToolOptions(template));
        double window = EsmSettings.fromTemplate(template).maximumBatchingWindow().toMillis() / 1e3;
        List<Plan> plans = new ArrayList<>();
        for (int repeat = 1; repeat <= repeats; repeat++) {
            for (double share : shares) {
                plans.add(new Plan("rates", memory, jit, window, share, repeat));
            }
        }
        // The template's window among the others, so that every window is measured side by side in one process.
        List<Double> frontier = new ArrayList<>(List.of(window));
        windows.stream().filter(other -> other != window).forEach(frontier::add);
        for (double other : windows.isEmpty() ? List.<Double>of() : frontier) {
            for (double share : FRONTIER_SHARES) {
                plans.add(new Plan("frontier", memory, jit, other, share, 1));
            }
        }
        for (int repeat = 1; repeat <= tuningRepeats && !memories.isEmpty(); repeat++) {
            for (int size : memories) {
                plans.add(new Plan("tuning", size, C1, window, 0, repeat));
                plans.add(new Plan("tuning", size, TIERED, window, 0, repeat));
            }
        }
        return plans;
    }

    /** The stream processor's {@code JAVA_TOOL_OPTIONS} in the template: its own, or else every function's. */
    static String javaToolOptions(DeploymentTemplate template) {
        return template.environmentVariable(DeploymentTemplate.STREAM_FUNCTION, "JAVA_TOOL_OPTIONS");
    }

    /** The JIT setting a function's {@code JAVA_TOOL_OPTIONS} make: C1 only when they stop tiering at level 1. */
    static String jit(String javaToolOptions) {
        return javaToolOptions.contains("TieredStopAtLevel=1") ? C1 : TIERED;
    }

    /** The stream processor's memory the template deploys by default, in MB. */
    static int defaultMemory(DeploymentTemplate template) {
        return template.tree().path("Parameters").path("StreamProcessorMemorySize").path("Default").asInt();
    }

    private ModelPlans() {
    }
}
