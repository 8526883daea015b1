package io.tally.bench.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.testkit.TableWriter;
import io.tally.core.ShardSettings;
import io.tally.core.TableDefinition;
import io.tally.core.domain.DomainRegistry;
import io.tally.local.events.EventRules;
import io.tally.local.events.LocalEventBus;
import io.tally.local.stream.InvocationResult;
import io.tally.local.stream.TumblingWindowBatchInvoker;
import io.tally.stream.rebuild.Rebuilder;
import io.tally.stream.rebuild.VerificationReport;
import io.tally.testkit.LocalDynamoDbServer;
import io.tally.testkit.StreamReader;
import io.tally.testkit.Workload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;

/**
 * The function process of the CPU-confined model handles batches as the deployed function does: its own JVM, the
 * handler wired from the environment, the events read by the runtime's serialization, the model's interceptor on its
 * clients through the SDK's global interceptors; the derived data it writes is exact, and it reports its writes. The
 * model's settings can change between invocations, its counters starting again, and the process applies the same
 * records exactly again to a fresh copy of the table an earlier batch left (as each run of a {@link FunctionGroup}
 * does).
 */
class FunctionProcessIT {
    @TempDir
    Path logs;

    @Test
    void aFunctionProcessAppliesBatchesExactlyAndReportsItsWritesAndCpu() throws Exception {
        try (LocalDynamoDbServer server = LocalDynamoDbServer.start(); DynamoDbClient admin = server.client();
             LocalEventBus bus = LocalEventBus.start(LocalEventBus.Settings.of("127.0.0.1", 0,
                     Files.createTempDirectory(logs, "bus")), EventRules.of("test", List.of()))) {
            admin.createTable(TableDefinition.createTableRequest("rec"));
            TableWriter.write(admin, "rec", Workload.writesOfEveryDomain(5, 1.1, 300), 2);
            List<Record> records = new ArrayList<>();
            new TreeMap<>(StreamReader.readAll(server.streamsClient(), "rec", (shard, record) -> record)).values()
                    .forEach(records::addAll);
            admin.createTable(TableDefinition.createTableRequest("run").toBuilder()
                    .streamSpecification(StreamSpecification.builder().streamEnabled(false).build()).build());
            String streamArn = StreamReader.streamArn(server.streamsClient(), "rec");
            String shardId = StreamReader.shards(server.streamsClient(), streamArn).get(0).shardId();
            Map<String, String> env = new LinkedHashMap<>();
            env.put("TABLE_NAME", "run");
            env.put("AWS_REGION", "us-east-1");
            env.put("AWS_ACCESS_KEY_ID", "local");
            env.put("AWS_SECRET_ACCESS_KEY", "local");
            env.put("EVENT_BUS_NAME", bus.busName());
            env.put("DYNAMODB_ENDPOINT", server.endpoint().toString());
            env.put("EVENTBRIDGE_ENDPOINT", bus.endpoint().toString());
            Echoes echoes = new Echoes(StreamDelay.of(1, 2), 1, 1);
            try (FunctionProcess function = FunctionProcess.start(new FunctionProcess.Launch(
                    "-XX:TieredStopAtLevel=1", 256, -1, env, Map.of(ModelState.SCALE, "1"), logs.resolve("f.log")))) {
                function.echoTo(echoes);
                int half = records.size() / 2;
                List<Record> first = numbered(records.subList(0, half), 0);
                List<Record> second = numbered(records.subList(half, records.size()), half);
                invoke(function, streamArn, shardId, first);
                // The table the first half leaves, kept as a seed (as a group's warm-up leaves its table).
                FunctionGroup.create(admin, "seed");
                FunctionGroup.copy(admin, "run", "seed");
                // New settings between batches (as after a warm-up): the counters start again from zero.
                assertThat(function.counter("calls")).isPositive();
                function.model(2, 7, 1_000, 10);
                assertThat(function.counter("calls")).isZero();
                assertThat(function.counter("writeUnits")).isZero();
                invoke(function, streamArn, shardId, second);
                assertThat(function.cpuNanos()).isPositive();
                assertThat(function.counter("writeUnits")).isPositive();
                assertThat(function.counter("calls")).isPositive();
                assertExact(admin, records);
                // The same process applies the second half again to a fresh copy of the seed: exact again, as each
                // run of a group is.
                admin.deleteTable(request -> request.tableName("run"));
                FunctionGroup.create(admin, "run");
                FunctionGroup.copy(admin, "seed", "run");
                invoke(function, streamArn, shardId, second);
                assertExact(admin, records);
            }
            assertThat(echoes.seen()).isPositive();
        }
    }

    /** One batch, in a window of its own that ends with it. */
    private static void invoke(FunctionProcess function, String streamArn, String shardId, List<Record> batch) {
        TumblingWindowBatchInvoker invoker = new TumblingWindowBatchInvoker("f", streamArn, Duration.ofSeconds(60),
                function, Duration.ofMinutes(2), Clock.systemUTC());
        InvocationResult result = invoker.invoke(shardId, batch);
        assertThat(result.isSuccess()).as(result.toString()).isTrue();
        invoker.endWindows();
    }

    private static void assertExact(DynamoDbClient admin, List<Record> records) {
        TableWriter.write(admin, "run", ModelRun.lastImages(records), 2);
        VerificationReport check = new Rebuilder(admin, null, "run",
                DomainRegistry.load().derivations(ShardSettings.DEFAULTS), 1).verify();
        assertThat(check.derivedItems()).isPositive();
        assertThat(check.differences()).isEmpty();
        assertThat(ModelRun.exact(check)).isTrue();
    }

    private static List<Record> numbered(List<Record> batch, int first) {
        List<Record> numbered = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            Record record = batch.get(i);
            numbered.add(record.toBuilder().dynamodb(record.dynamodb().toBuilder()
                    .sequenceNumber(String.format("%021d", first + i + 1)).approximateCreationDateTime(Instant.now())
                    .build()).build());
        }
        return numbered;
    }
}
