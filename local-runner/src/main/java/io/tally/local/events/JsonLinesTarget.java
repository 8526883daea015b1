package io.tally.local.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends every matched event to one JSON-lines file per rule, {@code <dir>/<rule>.jsonl}, one envelope per line:
 * a subscriber on this machine is {@code tail -f}, {@code jq} or a test reading the file.
 */
final class JsonLinesTarget implements EventTarget {
    private static final Logger LOG = LoggerFactory.getLogger(JsonLinesTarget.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;

    /** Creates {@code dir} and an empty file for each rule, so that a file can be followed before its first event. */
    JsonLinesTarget(Path dir, Collection<String> rules) {
        this.dir = dir;
        try {
            Files.createDirectories(dir);
            for (String rule : rules) {
                Files.write(file(rule), new byte[0], StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the event files in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The file of {@code rule}. Rule names are checked when loaded, so one can never leave the directory. */
    Path file(String rule) {
        return dir.resolve(rule + ".jsonl");
    }

    /**
     * Synchronized so that lines of concurrent calls never interleave; at a developer's event rates one lock costs
     * nothing. Each write opens, appends and closes the file, so a reader sees whole lines at once, and deleting
     * a file while the bus runs only starts a new one.
     */
    @Override
    public synchronized void deliver(MatchedEvent event) {
        if (event.rules().isEmpty()) {
            return;
        }
        byte[] line;
        try {
            line = (JSON.writeValueAsString(event.event()) + "\n").getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an envelope that cannot be written as JSON", e);
        }
        for (String rule : event.rules()) {
            Path file = file(rule);
            try {
                Files.write(file, line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                // As on AWS, a target's failure is not the publisher's: the event stays accepted (and in the recent
                // events); the file misses it, and the log says so.
                LOG.error("event {} matched rule {} but could not be appended to {}: {}", event.id(), rule, file,
                        e.toString());
            }
        }
    }
}
