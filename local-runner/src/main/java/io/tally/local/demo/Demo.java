package io.tally.local.demo;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import io.tally.core.demo.DemoApi;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code tally-local --demo}: loads the seed scenario ({@link DemoLoader}), then keeps a steady synthetic load
 * ({@link SyntheticLoad}) running until stopped, printing one progress line every few seconds: writes so far,
 * records the stream processor has processed, the stream's lag and the global figures of {@code GET /stats/global}.
 */
public final class Demo implements AutoCloseable {
    public static final double DEFAULT_WRITES_PER_SECOND = 20;
    public static final Duration DEFAULT_PROGRESS_INTERVAL = Duration.ofSeconds(5);

    private final RunningTally runner;
    private final PrintWriter out;
    private final ApiClient api;
    private final SyntheticLoad load;
    private final ScheduledExecutorService progress;
    private final long started = System.nanoTime();
    private int seedWrites;

    private Demo(RunningTally runner, PrintWriter out, double writesPerSecond) {
        this.runner = runner;
        this.out = out;
        this.api = new ApiClient(runner.baseUri());
        this.load = new SyntheticLoad(runner.domains(), runner.baseUri(), writesPerSecond);
        this.progress = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "tally-demo-progress");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Loads the seed scenario, then starts the load and the progress lines. */
    public static Demo start(RunningTally runner, PrintWriter out, double writesPerSecond, Duration progressInterval)
            throws IOException, InterruptedException {
        Demo demo = new Demo(runner, out, writesPerSecond);
        demo.seedWrites = new DemoLoader(runner.domains(), runner.baseUri()).loadSeed();
        out.println("demo: seed scenario loaded (" + demo.seedWrites + " writes); try curl -s "
                + runner.baseUri() + "/stats/global");
        out.println(String.format(Locale.ROOT, "demo: writing about %.0f random writes a second until Ctrl-C",
                writesPerSecond));
        demo.load.start();
        long millis = progressInterval.toMillis();
        demo.progress.scheduleAtFixedRate(demo::printProgress, millis, millis, TimeUnit.MILLISECONDS);
        return demo;
    }

    /** A demo that neither loads nor writes: for testing {@link #progressLine()}. */
    static Demo forTest(RunningTally runner, PrintWriter out) {
        return new Demo(runner, out, DEFAULT_WRITES_PER_SECOND);
    }

    private void printProgress() {
        try {
            out.println(progressLine());
        } catch (RuntimeException e) {
            out.println("demo: no progress figures: " + e);
        }
    }

    /** One line: writes, stream progress and the global stats as the read side serves them now. */
    String progressLine() {
        var snapshot = runner.streamSnapshot();
        String global;
        try {
            DemoApi.Reply reply = api.send("GET", "/stats/global", null);
            global = reply.ok() ? figures("", reply.body()) : "GET /stats/global answered " + reply.status();
        } catch (IOException e) {
            global = "GET /stats/global failed: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            global = "interrupted";
        }
        long seconds = (System.nanoTime() - started) / 1_000_000_000L;
        Duration lag = runner.streamLag();
        return String.format(Locale.ROOT, "demo %ds: %d writes (%d failed); stream: %d records processed, lag %.1f s%s; "
                        + "global: %s", seconds, seedWrites + load.writes(), load.failed(), snapshot.recordsProcessed(),
                lag.toMillis() / 1000.0, lag.isZero() ? " (caught up)" : "", global);
    }

    /** Every figure of a JSON object, in its order: {@code users 3, posts created 2, posts updated 1, ...}. */
    static String figures(String prefix, JsonNode object) {
        List<String> figures = new ArrayList<>();
        object.fields().forEachRemaining(field -> figures.add(field.getValue().isObject()
                ? figures(prefix + field.getKey() + " ", field.getValue())
                : prefix + field.getKey() + " " + field.getValue().asText()));
        return String.join(", ", figures);
    }

    /** Stops the load and the progress lines. Idempotent. */
    @Override
    public void close() {
        progress.shutdownNow();
        load.close();
    }
}
