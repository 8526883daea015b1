package io.tally.local.stream;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * An on-failure destination in a file: one JSON object per line and per discarded batch, holding the invocation
 * record AWS sends ({@code requestContext}, {@code responseContext}, {@code version}, {@code timestamp},
 * {@code DDBStreamBatchInfo}) and, as AWS does for an S3 destination, the batch itself under {@code payload} in the
 * shape of the Lambda event. {@code local.errorMessage} says what the function threw, which AWS keeps in the
 * function's logs instead.
 */
public final class JsonLinesFailureDestination implements FailureDestination {
    /** The name of the file in a data directory. */
    public static final String FILE_NAME = "stream-failures.jsonl";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;

    public JsonLinesFailureDestination(Path file) {
        this.file = file.toAbsolutePath();
    }

    /** The destination file {@value #FILE_NAME} in {@code dataDir}. */
    public static JsonLinesFailureDestination inDirectory(Path dataDir) {
        return new JsonLinesFailureDestination(dataDir.resolve(FILE_NAME));
    }

    public Path file() {
        return file;
    }

    @Override
    public synchronized void send(DiscardedBatch batch) {
        byte[] line = (toJson(batch) + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            Path parent = file.getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            // One write per line, so that a reader never sees half a batch unless the process dies mid-write.
            Files.write(file, line, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append a discarded batch to " + file, e);
        }
    }

    static String toJson(DiscardedBatch batch) {
        ObjectNode json = JSON.createObjectNode();
        ObjectNode request = json.putObject("requestContext");
        request.put("requestId", UUID.randomUUID().toString());
        request.put("functionArn", batch.functionArn());
        request.put("condition", batch.condition().awsName());
        request.put("approximateInvokeCount", batch.approximateInvokeCount());
        if (batch.approximateInvokeCount() > 0) {
            ObjectNode response = json.putObject("responseContext");
            response.put("statusCode", 200);
            response.put("executedVersion", "$LATEST");
            if (batch.functionError() != null) {
                response.put("functionError", batch.functionError());
            }
        }
        json.put("version", "1.0");
        json.put("timestamp", batch.timestamp().toString());
        ObjectNode info = json.putObject("DDBStreamBatchInfo");
        info.put("shardId", batch.shardId());
        info.put("startSequenceNumber", batch.startSequenceNumber());
        info.put("endSequenceNumber", batch.endSequenceNumber());
        info.put("approximateArrivalOfFirstRecord", String.valueOf(batch.approximateArrivalOfFirstRecord()));
        info.put("approximateArrivalOfLastRecord", String.valueOf(batch.approximateArrivalOfLastRecord()));
        info.put("batchSize", batch.batchSize());
        info.put("streamArn", batch.streamArn());
        json.set("payload", StreamRecordJson.event(batch.records(), batch.streamArn()));
        if (batch.errorMessage() != null) {
            json.putObject("local").put("errorMessage", batch.errorMessage());
        }
        try {
            return JSON.writeValueAsString(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a JSON tree", e);
        }
    }

    @Override
    public String toString() {
        return "file " + file;
    }
}
