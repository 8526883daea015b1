package io.tally.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Where the event files go, and whether the runner made it up and so removes it on close. */
record EventsDir(Path path, boolean temporary) {
    private static final Logger LOG = LoggerFactory.getLogger(LocalRunner.class);

    /**
     * Without a data directory nothing of a run is kept, so neither are its event files: they go to a temporary
     * directory that close() removes.
     */
    static EventsDir of(RunnerSettings settings) {
        if (settings.eventsDir() != null) {
            return new EventsDir(settings.eventsDir(), false);
        }
        if (settings.dataDir() != null) {
            return new EventsDir(settings.dataDir().resolve("events"), false);
        }
        try {
            return new EventsDir(Files.createTempDirectory("tally-events-"), true);
        } catch (IOException e) {
            throw new StartupException("cannot create a temporary directory for the event files: " + e
                    + "; pass --events-dir DIR", e);
        }
    }

    void removeIfTemporary() {
        if (!temporary) {
            return;
        }
        try (Stream<Path> files = Files.walk(path)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("could not remove the temporary event files in {}: {}", path, e.toString());
        }
    }
}
