package io.tally.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tally.core.TableDefinition;
import io.tally.stream.StreamRecords;
import io.tally.stream.engine.SourceRecord;
import io.tally.testkit.LocalDynamoDbServer;
import io.tally.testkit.StreamReader;
import io.tally.testkit.TableWriter;
import io.tally.testkit.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The floor of records after a skipped prefix (the CPU-confined model's: the records after its warm-up). */
class FloorRunIT {
    private static double total(Results.Floor floor) {
        return floor.byType().stream().mapToDouble(Results.FloorShare::floorUnits).sum();
    }

    @Test
    void theFloorAfterASkippedPrefixIsTheWholeFloorLessThePrefixs() {
        try (LocalDynamoDbServer server = LocalDynamoDbServer.start(); DynamoDbClient admin = server.client()) {
            admin.createTable(TableDefinition.createTableRequest("rec"));
            TableWriter.write(admin, "rec", Workload.writesOfEveryDomain(7, 1.1, 500), 2);
            List<SourceRecord> shard = new ArrayList<>();
            new TreeMap<>(StreamReader.readAll(server.streamsClient(), "rec", (id, record) -> record)).values()
                    .forEach(records -> records.forEach(record -> shard.add(StreamRecords.fromSdk("s", record))));
            int batch = 100;
            int skip = 200;
            assertThat(shard).hasSizeGreaterThan(skip + batch);

            Results.Floor all = FloorRun.run(server, "all", Map.of("s", shard), batch);
            Results.Floor prefix = FloorRun.run(server, "prefix", Map.of("s", shard.subList(0, skip)), batch);
            Results.Floor rest = FloorRun.run(server, "rest", Map.of("s", shard), batch, skip);

            // The skipped records are applied, not counted: the same batches, so the floors add up.
            assertThat(rest.records()).isEqualTo(shard.size() - skip);
            assertThat(total(rest)).isPositive();
            assertThat(total(prefix) + total(rest)).isCloseTo(total(all), within(total(all) * 0.01));
            // Counted from an empty table instead, the same records would cost other units (new items, not changes).
            Results.Floor fresh = FloorRun.run(server, "fresh", Map.of("s", shard.subList(skip, shard.size())), batch);
            assertThat(total(fresh)).isNotCloseTo(total(rest), within(0.5));
        }
    }
}
