package io.tally.bench;

import java.util.List;

/** What one cold-start run measured; serialized as-is to JSON and rendered by {@link Report}. */
record ColdStartResults(Environment environment, List<Jar> jars, List<HandlerResult> handlers, double targetMs) {

    /** @param runs fresh JVMs per handler */
    record Environment(String date, String command, int cores, String jvm, String os, String dynamoDb, int runs) {
    }

    /** A Lambda deployment package: the shaded jar, its path from the repository root and its size. */
    record Jar(String function, String path, long bytes, List<String> handlers) {
    }

    /**
     * @param event             the first event the handler gets
     * @param javaToolOptions   its function's {@code JAVA_TOOL_OPTIONS} in the template, which its JVMs got
     * @param totalMs           launch of the JVM to the end of the first invocation, measured by the parent
     * @param constructMs       the handler's constructor (class loading, configuration, clients), in the child
     * @param firstEventMs      building the first event and the first invocation, in the child
     * @param jvmStartMs        the rest: the JVM's start, loading the harness, up to the constructor, and the
     *                          parent reading the child's line
     */
    record HandlerResult(String handler, String jar, String event, String javaToolOptions, List<Run> runs,
                         Summary totalMs, Summary constructMs, Summary firstEventMs, Summary jvmStartMs,
                         boolean targetMet) {
    }

    /** One fresh JVM. {@code outcome} is the child's word on the invocation (status=201, failures=0). */
    record Run(double totalMs, double constructMs, double eventMs, double invokeMs, String outcome) {
    }

    record Summary(double median, double min, double max) {
        static Summary of(List<Double> values) {
            if (values.isEmpty()) {
                return new Summary(Double.NaN, Double.NaN, Double.NaN);
            }
            List<Double> sorted = values.stream().sorted().toList();
            int n = sorted.size();
            double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
            return new Summary(median, sorted.get(0), sorted.get(n - 1));
        }
    }
}
