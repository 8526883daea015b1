package io.tally.testkit;

import io.tally.core.Key;
import io.tally.core.workload.Write;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteRequest;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/** Bulk writes of base items: BatchWriteItem on parallel threads, keeping the order of writes to one item. */
public final class TableWriter {
    public static final int BATCH = 25;

    private TableWriter() {
    }

    /**
     * Sends the writes on {@code threads} threads. A key always goes to the same thread, and a batch never holds
     * one key twice, so every item sees its writes (and its stream records) in workload order; the derived data
     * only depends on that order, not on the interleaving of different items.
     */
    public static void write(DynamoDbClient client, String table, List<Write> writes, int threads) {
        List<List<Write>> lanes = partition(writes, threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (List<Write> lane : lanes) {
                futures.add(pool.submit(() -> {
                    for (List<Write> batch : batches(lane)) {
                        send(client, table, batch);
                    }
                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
        } catch (Exception e) {
            throw new IllegalStateException("bulk write to " + table + " failed", e);
        } finally {
            pool.shutdownNow();
        }
    }

    public static List<List<Write>> partition(List<Write> writes, int lanes) {
        List<List<Write>> result = new ArrayList<>();
        for (int i = 0; i < lanes; i++) {
            result.add(new ArrayList<>());
        }
        for (Write write : writes) {
            result.get(Math.floorMod(write.key().hashCode(), lanes)).add(write);
        }
        return result;
    }

    /** Consecutive runs of at most {@value #BATCH} writes with distinct keys (BatchWriteItem refuses duplicates). */
    public static List<List<Write>> batches(List<Write> lane) {
        List<List<Write>> batches = new ArrayList<>();
        List<Write> current = new ArrayList<>();
        Set<Key> keys = new HashSet<>();
        for (Write write : lane) {
            if (current.size() == BATCH || keys.contains(write.key())) {
                batches.add(current);
                current = new ArrayList<>();
                keys.clear();
            }
            current.add(write);
            keys.add(write.key());
        }
        if (!current.isEmpty()) {
            batches.add(current);
        }
        return batches;
    }

    private static void send(DynamoDbClient client, String table, List<Write> batch) {
        List<WriteRequest> requests = batch.stream().map(TableWriter::request).toList();
        Map<String, List<WriteRequest>> pending = Map.of(table, requests);
        while (!pending.isEmpty()) {
            pending = client.batchWriteItem(BatchWriteItemRequest.builder().requestItems(pending).build())
                    .unprocessedItems();
        }
    }

    private static WriteRequest request(Write write) {
        return write.isDelete()
                ? WriteRequest.builder().deleteRequest(DeleteRequest.builder().key(write.key().toAttributeMap()).build()).build()
                : WriteRequest.builder().putRequest(PutRequest.builder().item(write.item()).build()).build();
    }
}
