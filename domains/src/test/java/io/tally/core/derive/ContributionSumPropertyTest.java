package io.tally.core.derive;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.EntityType;
import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.users.User;
import io.tally.core.users.Users;
import io.tally.domains.blog.Blog;
import io.tally.domains.blog.BlogKeys;
import io.tally.domains.blog.Comment;
import io.tally.domains.blog.Post;
import io.tally.domains.blog.PostStatus;
import io.tally.domains.catalogue.Catalogue;
import io.tally.domains.catalogue.CatalogueItem;
import io.tally.domains.catalogue.CatalogueKeys;
import io.tally.domains.catalogue.ItemState;
import io.tally.domains.catalogue.UserItem;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The invariant's arithmetic: applying the changes of a sequence of images of one item one after another ends
 * where a single change from the first to the last image ends. Counters: the deltas of consecutive changes sum
 * to {@code contribution(last) - contribution(first)}. Documents: the last write leaves what the last image owns.
 * Images are random (seeded, so a failure names a reproducible seed); {@code null} is "the item does not exist".
 */
class ContributionSumPropertyTest {
    private static final int SEQUENCES = 300;
    private static final Instant T0 = Instant.parse("2019-01-22T10:00:00.000Z");
    private static final Derivations DERIVATIONS = DomainRegistry.load().derivations(ShardSettings.DEFAULTS
            .with(ShardSettings.GLOBAL, 3).with(CatalogueKeys.SELECTOR_SHARDS, 3).with(BlogKeys.STATUS_SHARDS, 3));

    record Images(String name, EntityType type, Function<Random, Map<String, AttributeValue>> random) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Images> items() {
        return Stream.of(
                new Images("user", Users.USER, random -> new User("u1", pick(random, "Ada", "Grace"),
                        "a@example.com", T0, later(random), random.nextInt(5)).toItem()),
                new Images("post", Blog.POST, random -> new Post("p1", "u1", pick(random, "A", "B"), "body",
                        pick(random, PostStatus.values()), T0, later(random), random.nextInt(5)).toItem()),
                new Images("comment", Blog.COMMENT, random -> new Comment("c1", "p1", "u1", T0, "u2",
                        pick(random, "x", "y"), T0).toItem()),
                new Images("catalogue item", Catalogue.CATALOGUE_ITEM, random -> new CatalogueItem("55",
                        pick(random, null, "Ownership"), random.nextInt(4),
                        pick(random, "global-cycle:1", "user-cycle:2", "back-catalogue"), later(random),
                        random.nextInt(5)).toItem()),
                new Images("user item", Catalogue.USER_ITEM, random -> new UserItem("8790", "3",
                        pick(random, ItemState.values()), random.nextInt(4), pick(random, null, 0.5),
                        pick(random, null, true, false), pick(random, null, true, false), later(random), later(random))
                        .toItem()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("items")
    void randomImageSequence_consecutiveChanges_sumToLastMinusFirst(Images images) {
        for (int seed = 0; seed < SEQUENCES; seed++) {
            Random random = new Random(seed);
            List<Map<String, AttributeValue>> sequence = new ArrayList<>();
            int length = 2 + random.nextInt(12);
            for (int i = 0; i < length; i++) {
                sequence.add(random.nextInt(4) == 0 ? null : images.random().apply(random));
            }
            Map<String, AttributeValue> first = sequence.get(0);
            Map<String, AttributeValue> last = sequence.get(length - 1);

            Map<CounterRef, Long> summed = new HashMap<>();
            Map<Key, Map<String, AttributeValue>> documents = documentsOf(contribution(images.type(), first));
            for (int i = 1; i < length; i++) {
                IntendedChanges step = DERIVATIONS.derive(images.type(), "record-" + i, sequence.get(i - 1), sequence.get(i));
                step.counterDeltas().forEach((counter, delta) -> summed.merge(counter, delta, Long::sum));
                step.documents().forEach((key, document) -> write(documents, key, document));
            }
            summed.values().removeIf(delta -> delta == 0);

            Contribution from = contribution(images.type(), first);
            Contribution to = contribution(images.type(), last);
            assertThat(summed).as("%s, seed %d: summed counter deltas", images, seed).isEqualTo(minus(to, from));
            assertThat(documents).as("%s, seed %d: documents", images, seed).isEqualTo(documentsOf(to));
        }
    }

    private static Contribution contribution(EntityType type, Map<String, AttributeValue> image) {
        if (image == null) {
            return Contribution.NONE;
        }
        IntendedChanges changes = DERIVATIONS.derive(type, "property", null, image);
        return new Contribution(changes.counterDeltas(), changes.documents());
    }

    /** Counter arithmetic done here rather than by {@link IntendedChanges#between}, which is under test too. */
    private static Map<CounterRef, Long> minus(Contribution to, Contribution from) {
        Map<CounterRef, Long> difference = new HashMap<>(to.counters());
        from.counters().forEach((counter, amount) -> difference.merge(counter, -amount, Long::sum));
        difference.values().removeIf(delta -> delta == 0);
        return difference;
    }

    private static Map<Key, Map<String, AttributeValue>> documentsOf(Contribution contribution) {
        Map<Key, Map<String, AttributeValue>> documents = new HashMap<>();
        contribution.documents().forEach((key, document) -> write(documents, key, document));
        return documents;
    }

    /** A document write as the engine performs it: set the values, remove the owned attributes it lacks. */
    private static void write(Map<Key, Map<String, AttributeValue>> store, Key key, Document document) {
        Map<String, AttributeValue> item = new HashMap<>(store.getOrDefault(key, Map.of()));
        item.keySet().removeIf(name -> document.owned().contains(name) && !document.values().containsKey(name));
        item.putAll(document.values());
        if (item.isEmpty()) {
            store.remove(key);
        } else {
            store.put(key, item);
        }
    }

    private static Instant later(Random random) {
        return T0.plusMillis(random.nextInt(100_000));
    }

    @SafeVarargs
    private static <T> T pick(Random random, T... choices) {
        return choices[random.nextInt(choices.length)];
    }
}
