package io.tally.local.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.TreeMap;

/**
 * Checkpoints in one JSON file, for a runner that keeps its database in a data directory: a restart resumes where the
 * previous run stopped. Each save rewrites the whole file through a temporary file and an atomic rename, so a crash
 * leaves either the previous or the new checkpoints, never a torn file. The file is not forced to disk: a machine
 * crash may lose the last checkpoints, which only means records delivered again (the stream processor is built for
 * at-least-once delivery), and fsync per batch would dominate the cost of a local run.
 *
 * <pre>{"version":1,"streams":{"arn:...":{"shardId-...":{"sequenceNumber":"...","done":false}}}}</pre>
 */
public final class FileCheckpointStore implements CheckpointStore {
    /** The name of the file in a data directory. */
    public static final String FILE_NAME = "stream-checkpoints.json";
    private static final int VERSION = 1;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    private final Map<String, Map<String, ShardCheckpoint>> streams;

    /**
     * Reads the file if it exists.
     *
     * @throws IllegalStateException if the file exists but is not a checkpoint file
     * @throws UncheckedIOException  if it cannot be read
     */
    public FileCheckpointStore(Path file) {
        this.file = file.toAbsolutePath();
        this.streams = read(this.file);
    }

    /** The checkpoint file {@value #FILE_NAME} in {@code dataDir}. */
    public static FileCheckpointStore inDirectory(Path dataDir) {
        return new FileCheckpointStore(dataDir.resolve(FILE_NAME));
    }

    public Path file() {
        return file;
    }

    @Override
    public synchronized Map<String, ShardCheckpoint> load(String streamArn) {
        return Map.copyOf(streams.getOrDefault(streamArn, Map.of()));
    }

    /** @throws UncheckedIOException if the file cannot be written; the checkpoint is kept and written with the next */
    @Override
    public synchronized void save(String streamArn, String shardId, ShardCheckpoint checkpoint) {
        streams.computeIfAbsent(streamArn, arn -> new TreeMap<>()).put(shardId, checkpoint);
        write();
    }

    private void write() {
        ObjectNode root = JSON.createObjectNode();
        root.put("version", VERSION);
        ObjectNode streamsJson = root.putObject("streams");
        streams.forEach((arn, shards) -> {
            ObjectNode shardsJson = streamsJson.putObject(arn);
            shards.forEach((shardId, checkpoint) -> {
                ObjectNode json = shardsJson.putObject(shardId);
                if (checkpoint.sequenceNumber() == null) {
                    json.putNull("sequenceNumber");
                } else {
                    json.put("sequenceNumber", checkpoint.sequenceNumber());
                }
                json.put("done", checkpoint.done());
            });
        });
        Path directory = file.getParent();
        Path temporary = null;
        try {
            Files.createDirectories(directory);
            // In the same directory, so that the rename stays on one file system and can be atomic.
            temporary = Files.createTempFile(directory, "." + file.getFileName(), ".tmp");
            JSON.writerWithDefaultPrettyPrinter().writeValue(temporary.toFile(), root);
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            temporary = null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write stream checkpoints to " + file, e);
        } finally {
            if (temporary != null) {
                try {
                    Files.deleteIfExists(temporary);
                } catch (IOException ignored) {
                    // The failure that brought us here is the one worth reporting.
                }
            }
        }
    }

    private static Map<String, Map<String, ShardCheckpoint>> read(Path file) {
        Map<String, Map<String, ShardCheckpoint>> streams = new TreeMap<>();
        if (!Files.exists(file)) {
            return streams;
        }
        JsonNode root;
        try {
            root = JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw corrupt(file, e.getMessage(), e);
        }
        if (root == null || !root.isObject() || root.path("version").asInt() != VERSION
                || !root.path("streams").isObject()) {
            throw corrupt(file, "expected {\"version\":" + VERSION + ",\"streams\":{...}}", null);
        }
        for (Map.Entry<String, JsonNode> stream : root.get("streams").properties()) {
            Map<String, ShardCheckpoint> shards = new TreeMap<>();
            for (Map.Entry<String, JsonNode> shard : stream.getValue().properties()) {
                JsonNode sequenceNumber = shard.getValue().path("sequenceNumber");
                JsonNode done = shard.getValue().path("done");
                if (!(sequenceNumber.isTextual() || sequenceNumber.isNull()) || !done.isBoolean()) {
                    throw corrupt(file, "shard " + shard.getKey() + " needs a sequenceNumber (string or null) and "
                            + "done (boolean)", null);
                }
                shards.put(shard.getKey(), new ShardCheckpoint(sequenceNumber.isNull() ? null : sequenceNumber.asText(),
                        done.asBoolean()));
            }
            streams.put(stream.getKey(), shards);
        }
        return streams;
    }

    private static IllegalStateException corrupt(Path file, String detail, Exception cause) {
        return new IllegalStateException("stream checkpoint file " + file + " is not readable (" + detail + "); "
                + "delete it to have the stream processed again from its oldest record", cause);
    }

    @Override
    public String toString() {
        return "file " + file;
    }
}
