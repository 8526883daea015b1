package io.tally.stream.engine;

import static io.tally.stream.testing.TestRecords.post;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tally.core.Key;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.CounterRef;
import io.tally.core.derive.Derivation;
import io.tally.core.derive.EntityDerivation;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.domains.blog.Blog;
import io.tally.domains.blog.Post;
import io.tally.domains.blog.PostStatus;
import io.tally.domains.favs.FavKeys;
import io.tally.domains.favs.FavFigures;
import io.tally.stream.testing.FlakyDerivedStore;
import io.tally.stream.testing.RecordingPublisher;
import io.tally.stream.testing.TestRecords;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Batches that change more attributes of one derived item than one write holds: the engine writes them in several
 * writes of consecutive records, each within {@link KeyContributions#MAX_ATTRIBUTES_PER_WRITE}; a single record that
 * changes more is poison.
 */
class WideWritesTest {
    private static final String SHARD = "shardId-00000001714564800000-0a1b2c3d";
    private static final Key STATS = FavKeys.favouriteStats("u1");

    private final InMemoryDeadLetterSink sink = new InMemoryDeadLetterSink();
    private Engine engine;

    @AfterEach
    void close() {
        engine.close();
    }

    /**
     * Each post counts one per tag named in its title ({@code "t1 t2 ..."}) on u1's favourite stats: a derivation whose
     * records change as many counters of one item as the test asks.
     */
    private static Derivation tagsInTitles() {
        return new EntityDerivation<Post>(Blog.POST) {
            @Override
            protected Post read(Map<String, AttributeValue> image) {
                return Post.fromItem(image);
            }

            @Override
            protected Contribution contribution(Post post) {
                Contribution.Builder contribution = Contribution.builder();
                for (String tag : post.title().split(" ")) {
                    contribution.count(CounterRef.of(FavFigures.STATS.type(), "u1", FavFigures.TAG_PREFIX + tag), 1);
                }
                return contribution.build();
            }
        };
    }

    private final InMemoryDerivedStore items = new InMemoryDerivedStore();

    private FlakyDerivedStore process(TestRecords records) {
        FlakyDerivedStore store = new FlakyDerivedStore(items);
        engine = Engine.builder()
                .derivations(Derivations.of(DomainRegistry.load(), tagsInTitles()))
                .store(store)
                .deadLetters(sink)
                .publisher(new RecordingPublisher())
                .metrics(new StreamMetrics(new SimpleMeterRegistry()))
                .build();
        BatchResult result = engine.process(records.records());
        assertThat(result.failedSequenceNumber()).isEmpty();
        return store;
    }

    @Test
    void fiveHundredRecords_eachAnotherCounterOfOneItem_writtenInRunsOfAtMostTheLimit_everyCountIn() {
        TestRecords records = new TestRecords(SHARD);
        for (int i = 0; i < 500; i++) {
            records.put(post("u1", "p" + i, "t" + i, PostStatus.CREATED).toItem());
        }

        FlakyDerivedStore store = process(records);

        List<DerivedWrite> writes = store.writes();
        assertThat(writes).hasSize(3);
        assertThat(writes).allSatisfy(write -> assertThat(write.counterAdds()).hasSizeLessThanOrEqualTo(
                KeyContributions.MAX_ATTRIBUTES_PER_WRITE));
        // Consecutive runs: each write starts right after the one before it, which it expects as the watermark.
        for (int i = 1; i < writes.size(); i++) {
            assertThat(writes.get(i).expectedWatermark()).isEqualTo(writes.get(i - 1).lastSequence());
            assertThat(writes.get(i).firstSequence()).isGreaterThan(writes.get(i - 1).lastSequence());
        }
        assertThat(writes.get(2).lastSequence()).isEqualTo(records.records().get(499).paddedSequence());
        Map<String, AttributeValue> item = items.whole(STATS).orElseThrow();
        for (int i = 0; i < 500; i++) {
            assertThat(item.get(FavFigures.TAG_PREFIX + "t" + i)).isEqualTo(AttributeValue.fromN("1"));
        }
    }

    @Test
    void aRecordChangingMoreAttributesOfOneItemThanAWriteHolds_isPoison_theOthersApplied() {
        TestRecords records = new TestRecords(SHARD);
        StringBuilder wide = new StringBuilder("w0");
        for (int i = 1; i <= KeyContributions.MAX_ATTRIBUTES_PER_WRITE; i++) {
            wide.append(" w").append(i);
        }
        records.put(post("u1", "p1", "a b", PostStatus.CREATED).toItem());
        records.put(post("u1", "p2", wide.toString(), PostStatus.CREATED).toItem());
        records.put(post("u1", "p3", "b c", PostStatus.CREATED).toItem());

        FlakyDerivedStore store = process(records);

        assertThat(sink.letters()).singleElement().satisfies(letter -> {
            assertThat(letter.sequenceNumber()).isEqualTo(records.records().get(1).sequenceNumber());
            assertThat(letter.reason()).contains("changes 201 attributes", "more than one write holds (200)");
        });
        Map<String, AttributeValue> item = items.whole(STATS).orElseThrow();
        assertThat(item.get(FavFigures.TAG_PREFIX + "b")).isEqualTo(AttributeValue.fromN("2"));
        assertThat(item).doesNotContainKey(FavFigures.TAG_PREFIX + "w0");
    }
}
