package io.tally.domains.favs;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.read.SharedReads;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.rebuild.Rebuilder;
import io.tally.stream.rebuild.VerificationReport;
import io.tally.stream.testing.RecordingPublisher;
import io.tally.stream.testing.StreamDrain;
import io.tally.testkit.LocalDynamoDb;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Batches that change many attributes of one derived item, at DOMAIN.md's limits (1,000 tags per user, 50 tag links
 * per favourite), on DynamoDB Local with the real engine: one write of all of them would pass DynamoDB's 4 KB update
 * expression limit, so the engine splits them by sequence range, and every count lands.
 */
class WideBatchIT {
    private static final Instant T = Instant.parse("2026-11-27T08:00:00Z");
    private static final Derivations DERIVATIONS = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);
    private static final Key STATS = FavKeys.favouriteStats("u1");

    private final DynamoDbClient dynamo = LocalDynamoDb.client();
    private final RecordingPublisher publisher = new RecordingPublisher();
    private String table;
    private StreamDrain stream;

    @BeforeEach
    void setUp() {
        table = LocalDynamoDb.createTable("wide-it");
        stream = StreamDrain.withEngine(dynamo, table, DERIVATIONS, publisher);
    }

    @AfterEach
    void tearDown() {
        stream.close();
    }

    @Test
    void aThousandTags_eachLinkedOnce_inOneBatch_everyTagCounted() {
        List<Tag> tags = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            tags.add(tag("t" + i));
        }
        for (int f = 0; f < 20; f++) {
            Favourite favourite = favourite("f" + f, "Trip " + f, "fi" + f);
            for (int l = 0; l < 50; l++) {
                link(favourite, tags.get(f * 50 + l));
            }
        }

        List<SourceRecord> batch = stream.newRecords();
        assertThat(batch).hasSizeGreaterThan(3_000);
        stream.process(batch);

        Map<String, AttributeValue> stats = stats();
        for (int i = 0; i < 1_000; i++) {
            assertThat(stats.get("tag:t" + i)).as("tag:t%d", i).isEqualTo(AttributeValue.fromN("1"));
        }
        assertThat(stream.counter(STATS, "favourites")).isEqualTo(20);
        assertExact();
    }

    @Test
    void favouriteWithFiftyTags_uncollected_itsLinkRemovalsInOneBatch_countsBackToZero_andTheZerosRemoved() {
        Favourite pizza = favourite("f1", "Pizza", "fi1");
        Favourite beach = favourite("f2", "Beach", "fi2");
        for (int i = 0; i < 50; i++) {
            Tag tag = tag("t" + i);
            link(pizza, tag);
            if (i == 0) {
                link(beach, tag);
            }
        }
        stream.drain();
        assertThat(stream.counter(STATS, "tag:t49")).isEqualTo(1);

        delete(pizza.key());
        stream.process(stream.newRecords());
        // The cascade's 50 link removals (with the echoes of the first batch's derived writes), one batch.
        List<SourceRecord> removals = stream.newRecords();
        assertThat(removals).filteredOn(r -> r.eventName().equals("REMOVE")
                && r.keys().get("pk").s().startsWith(FavKeys.LINKS_PREFIX)).hasSize(50);
        stream.process(removals);

        Map<String, AttributeValue> stats = stats();
        assertThat(stats.get("tag:t0")).isEqualTo(AttributeValue.fromN("1"));
        assertThat(stats.keySet()).filteredOn(name -> name.startsWith("tag:")).containsExactly("tag:t0");
        assertThat(stream.counter(STATS, "favourites")).isEqualTo(1);
        assertExact();
    }

    private Favourite favourite(String id, String title, String incarnation) {
        return new FavTable(dynamo, table, T).favourite(id, title, T, incarnation);
    }

    private Tag tag(String tagId) {
        return new FavTable(dynamo, table, T).tag(tagId, "i-" + tagId);
    }

    private void link(Favourite favourite, Tag tag) {
        new FavTable(dynamo, table, T).link(favourite, tag);
    }

    private void delete(Key key) {
        new FavTable(dynamo, table, T).delete(key);
    }

    private Map<String, AttributeValue> stats() {
        // As readers read the shared stats: the base item and the stream shards' partials, summed.
        return SharedReads.whole(dynamo, table, STATS, null);
    }

    private void assertExact() {
        VerificationReport report = new Rebuilder(dynamo, LocalDynamoDb.streamsClient(), table, DERIVATIONS, 2).verify();
        assertThat(report.differences()).isEmpty();
        assertThat(report.behindItems()).isZero();
    }
}
