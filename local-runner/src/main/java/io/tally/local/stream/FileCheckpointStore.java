package io.tally.local.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.TreeMap;

/**
 * Checkpoints in one JSON file, for a runner that keeps its database in a data directory: a restart resumes where the
 * previous run stopped. Each save rewrites the whole file through a temporary file in the same directory: written,
 * forced to disk (fsync), renamed over the file atomically, and the directory forced too, so that the rename itself
 * is on disk when {@link #save} returns. A crash of the process (kill -9) or of the machine then leaves either the
 * previous or the new checkpoints, never a torn or empty file, and never an older one than the last save returned.
 * (A lost checkpoint would only mean records delivered again, which the stream processor is built for; a torn one
 * would stop the next start.) A save costs two fsyncs, once per batch of the stream.
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
            writeDurably(temporary, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            temporary = null;
            forceDirectory(directory);
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

    /** Writes the bytes and forces them, and the file's length, to disk before returning. */
    private static void writeDurably(Path path, byte[] content) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buffer = ByteBuffer.wrap(content);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
    }

    /**
     * Forces a directory's entries to disk, so that a rename in it survives a machine crash. Linux and macOS allow
     * opening a directory for reading and syncing it; Windows does not (and needs no such step), so there an
     * {@link IOException} on opening is ignored.
     */
    static void forceDirectory(Path directory) throws IOException {
        FileChannel channel;
        try {
            channel = FileChannel.open(directory, StandardOpenOption.READ);
        } catch (IOException notSupported) {
            return;
        }
        try (channel) {
            channel.force(true);
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
