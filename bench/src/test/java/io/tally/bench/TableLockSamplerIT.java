package io.tally.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.TableDefinition;
import io.tally.testkit.LocalDynamoDbServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The table lock sampler against a real DynamoDB Local server: it must recognise the frames of DynamoDB Local's write
 * lock (a new DynamoDB Local that renamed them would read 0% and make the benchmark's ceiling meaningless), see the
 * lock busy while eight threads write to one table, and idle when nothing writes.
 */
class TableLockSamplerIT {
    @Test
    void eightWritersOnOneTable_keepTheLockOccupied_andNoWriterLeavesItIdle() throws Exception {
        try (LocalDynamoDbServer server = LocalDynamoDbServer.start(); DynamoDbClient client = server.client()) {
            client.createTable(TableDefinition.createTableRequest("locked"));

            TableLockSampler idle = TableLockSampler.start();
            Thread.sleep(300);
            Results.TableLock nothing = idle.stop();
            assertThat(nothing.samples()).isPositive();
            assertThat(nothing.occupied()).isZero();

            ExecutorService writers = Executors.newFixedThreadPool(8);
            TableLockSampler busy = TableLockSampler.start();
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                String user = "u" + t;
                futures.add(writers.submit(() -> {
                    for (int i = 0; i < 150; i++) {
                        client.updateItem(r -> r.tableName("locked")
                                .key(Map.of("pk", AttributeValue.fromS("USER#" + user), "sk", AttributeValue.fromS("STATS")))
                                .updateExpression("ADD n :one")
                                .expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1"))));
                    }
                }));
            }
            for (Future<?> future : futures) {
                future.get(2, TimeUnit.MINUTES);
            }
            Results.TableLock lock = busy.stop();
            writers.shutdown();

            assertThat(lock.samples()).isPositive();
            assertThat(lock.held()).isPositive();
            // Eight writers on two cores: most samples find one writing and others queued behind it.
            assertThat(lock.occupied()).isGreaterThan(0.5).isGreaterThanOrEqualTo(lock.held());
            assertThat(lock.meanWaiting()).isPositive();
            assertThat(lock.ceiling(100)).isGreaterThanOrEqualTo(100);
        }
    }
}
