package io.tally.stream.scale;

import io.tally.core.derive.CascadeRunner;
import io.tally.core.domain.Derivations;
import io.tally.stream.engine.DynamoDbDeadLetterSink;
import io.tally.stream.engine.DynamoDbDerivedStore;
import io.tally.stream.engine.DynamoDbShardCursors;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.ShardParents;
import io.tally.stream.fault.ReadSideModel;
import io.tally.stream.rebuild.Rebuilder;
import io.tally.stream.rebuild.VerificationReport;
import io.tally.stream.testing.RecordingPublisher;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** What the scale simulations share: the engine they drive, and how they check the table at the end. */
final class ScaleRuns {
    private ScaleRuns() {
    }

    /**
     * The real engine as the deployment wires it, every write of it through {@code counted} (whose write units are
     * measured); cascades write base items through {@code plain}, as the writer service would.
     */
    static Engine engine(DynamoDbClient counted, DynamoDbClient plain, String table, Derivations derivations,
                         Clock clock, ShardParents parents) {
        return Engine.builder().derivations(derivations)
                .parents(parents)
                .store(new DynamoDbDerivedStore(counted, table))
                .cursors(new DynamoDbShardCursors(counted, table))
                .deadLetters(new DynamoDbDeadLetterSink(counted, table, clock))
                .publisher(new RecordingPublisher())
                .cascades(CascadeRunner.overTable(plain, table))
                .clock(clock)
                .build();
    }

    /**
     * The table checked two ways: the rebuild's verification (a recomputation from the base items) and the independent
     * read-side model over a consistent scan.
     */
    record Exactness(VerificationReport verified, List<String> modelDifferences) {
        static Exactness of(DynamoDbClient dynamo, String table, Derivations derivations) {
            VerificationReport verified = new Rebuilder(dynamo, null, table, derivations, 2).verify();
            List<Map<String, AttributeValue>> scan = new ArrayList<>();
            dynamo.scanPaginator(r -> r.tableName(table).consistentRead(true)).items().forEach(scan::add);
            return new Exactness(verified, ReadSideModel.differences(scan));
        }

        boolean exact() {
            return verified.isExact() && modelDifferences.isEmpty();
        }
    }
}
