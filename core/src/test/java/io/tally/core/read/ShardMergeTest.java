package io.tally.core.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.tally.core.http.ApiException;
import io.tally.core.http.Cursors;
import io.tally.core.http.ErrorCode;
import io.tally.core.http.Json;
import io.tally.core.read.ShardMerge.MergedPage;
import io.tally.core.read.ShardMerge.Position;
import io.tally.core.read.ShardMerge.Resume;
import io.tally.core.read.ShardMerge.ShardRead;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The k-way merge against shards simulated in memory the way DynamoDB answers a Query with {@code Limit} and
 * {@code ExclusiveStartKey}; every page's cursor makes the round trip through a signed string (no network).
 */
class ShardMergeTest {
    private static final Comparator<Position> DESCENDING =
            Comparator.comparing(Position::sort).thenComparing(Position::id).reversed();
    private static final String SCOPE = "test-list";

    private final Cursors cursors = new Cursors("0123456789abcdef-test".getBytes(StandardCharsets.UTF_8));
    private final ShardMerge<Position> merge = new ShardMerge<>(Function.identity(), DESCENDING);

    /**
     * Shards held in their own order, read like a DynamoDB Query: from after the start key, at most {@code limit}
     * items (here: page limit + 1), with a {@code LastEvaluatedKey} whenever the query stopped at that limit or
     * at {@code cap} (standing in for the 1 MB cap), even if nothing follows.
     */
    private record Shards(List<List<Position>> shards, int cap) {
        Shards(List<List<Position>> shards) {
            this(shards, Integer.MAX_VALUE);
        }

        ShardRead<Position> query(int shard, Position after, int limit) {
            List<Position> all = shards.get(shard);
            int from = after == null ? 0 : all.indexOf(after) + 1;
            if (after != null && from == 0) {
                throw new AssertionError("start key " + after + " is not in shard " + shard);
            }
            int stop = Math.min(limit, cap);
            List<Position> items = all.subList(from, Math.min(all.size(), from + stop));
            Position last = items.size() == stop ? items.get(items.size() - 1) : null;
            return new ShardRead<>(items, last);
        }

        List<ShardRead<Position>> read(List<Resume> from, int pageLimit) {
            List<ShardRead<Position>> reads = new ArrayList<>();
            for (int s = 0; s < from.size(); s++) {
                reads.add(from.get(s).done() ? null : query(s, from.get(s).after(), pageLimit + 1));
            }
            return reads;
        }

        List<Position> all() {
            return shards.stream().flatMap(List::stream).sorted(DESCENDING).toList();
        }
    }

    private static Position p(String sort, String id) {
        return new Position(sort, id);
    }

    /** A shard in the merged order. */
    private static List<Position> shard(Position... positions) {
        return Arrays.stream(positions).sorted(DESCENDING).toList();
    }

    /** Reads the whole list page by page, each cursor through its string form; returns the pages. */
    private List<List<Position>> pages(Shards shards, int limit) {
        List<List<Position>> pages = new ArrayList<>();
        String cursor = null;
        do {
            List<Resume> from = ShardMerge.decode(cursors, SCOPE, cursor, shards.shards().size(), p -> true);
            MergedPage<Position> page = merge.merge(from, shards.read(from, limit), limit);
            assertThat(page.items()).hasSizeLessThanOrEqualTo(limit);
            pages.add(page.items());
            cursor = ShardMerge.encode(cursors, SCOPE, page.next());
            assertThat(cursor == null).isEqualTo(!page.hasMore());
            if (pages.size() > 10_000) {
                throw new AssertionError("the list does not end");
            }
        } while (cursor != null);
        return pages;
    }

    private static List<Position> concat(List<List<Position>> pages) {
        return pages.stream().flatMap(List::stream).toList();
    }

    @Test
    void merge_fourShards_ordersDescendingAcrossShards() {
        Shards shards = new Shards(List.of(
                shard(p("2026-01-05", "e"), p("2026-01-01", "a")),
                shard(p("2026-01-04", "d")),
                shard(p("2026-01-07", "g"), p("2026-01-03", "c"), p("2026-01-02", "b")),
                shard(p("2026-01-06", "f"))));
        List<Resume> from = ShardMerge.start(4);

        MergedPage<Position> page = merge.merge(from, shards.read(from, 25), 25);

        assertThat(page.items()).extracting(Position::id).containsExactly("g", "f", "e", "d", "c", "b", "a");
        assertThat(page.next()).containsOnly(Resume.DONE);
        assertThat(page.hasMore()).isFalse();
    }

    @Test
    void merge_equalSortValuesInTwoShards_ordersByIdDescending() {
        Shards shards = new Shards(List.of(
                shard(p("5", "a"), p("5", "c")),
                shard(p("5", "b"), p("5", "d"))));
        List<Resume> from = ShardMerge.start(2);

        MergedPage<Position> page = merge.merge(from, shards.read(from, 10), 10);

        assertThat(page.items()).extracting(Position::id).containsExactly("d", "c", "b", "a");
    }

    @Test
    void merge_equalPositionsInTwoShards_lowerShardFirst() {
        ShardMerge<String> tagged = new ShardMerge<>(item -> p("5", "x"), DESCENDING);
        List<Resume> from = ShardMerge.start(2);

        MergedPage<String> page = tagged.merge(from,
                List.of(new ShardRead<>(List.of("from-0"), null), new ShardRead<>(List.of("from-1"), null)), 10);

        assertThat(page.items()).containsExactly("from-0", "from-1");
    }

    @Test
    void pages_shardOrdersTiesUnlikeTheMerge_keepsShardOrderAndLosesNothing() {
        // An index orders equal range values as it pleases: here shard 0 returns a before c.
        Shards shards = new Shards(List.of(
                List.of(p("5", "a"), p("5", "c"), p("4", "z")),
                shard(p("5", "b"), p("3", "y"))));

        List<Position> all = concat(pages(shards, 1));

        assertThat(all).extracting(Position::id).containsExactly("b", "a", "c", "z", "y");
    }

    @Test
    void merge_exhaustedShard_isDoneAndNotReadAgain() {
        Shards shards = new Shards(List.of(
                shard(p("9", "a"), p("8", "b"), p("7", "c")),
                List.of(),
                shard(p("1", "z"))));
        List<Resume> from = ShardMerge.start(3);

        MergedPage<Position> first = merge.merge(from, shards.read(from, 2), 2);

        assertThat(first.items()).extracting(Position::id).containsExactly("a", "b");
        assertThat(first.next()).containsExactly(Resume.after(p("8", "b")), Resume.DONE, Resume.START);
        List<ShardRead<Position>> reads = shards.read(first.next(), 2);
        assertThat(reads.get(1)).isNull();
        MergedPage<Position> second = merge.merge(first.next(), reads, 2);
        assertThat(second.items()).extracting(Position::id).containsExactly("c", "z");
        assertThat(second.next()).containsOnly(Resume.DONE);
    }

    @Test
    void merge_everyShardEmpty_returnsEmptyPageWithoutCursor() {
        Shards shards = new Shards(List.of(List.of(), List.of(), List.of(), List.of()));

        List<List<Position>> pages = pages(shards, 25);

        assertThat(pages).containsExactly(List.of());
    }

    @Test
    void pages_endingExactlyAtShardBoundaries_lastPageFullAndCursorNull() {
        Shards shards = new Shards(List.of(
                shard(p("8", "h"), p("7", "g")),
                shard(p("6", "f"), p("5", "e")),
                shard(p("4", "d"), p("3", "c")),
                shard(p("2", "b"), p("1", "a"))));

        List<List<Position>> byTwo = pages(shards, 2);
        List<List<Position>> byFour = pages(shards, 4);
        List<List<Position>> byEight = pages(shards, 8);

        assertThat(byTwo).hasSize(4).allSatisfy(page -> assertThat(page).hasSize(2));
        assertThat(byFour).hasSize(2).allSatisfy(page -> assertThat(page).hasSize(4));
        assertThat(byEight).hasSize(1);
        assertThat(concat(byTwo)).isEqualTo(shards.all());
    }

    @Test
    void pages_shardHoldingExactlyLimitItems_isDoneWithoutAnotherRead() {
        Shards shards = new Shards(List.of(shard(p("3", "c"), p("2", "b")), shard(p("1", "a"))));
        List<Resume> from = ShardMerge.start(2);

        MergedPage<Position> page = merge.merge(from, shards.read(from, 2), 2);

        assertThat(page.items()).extracting(Position::id).containsExactly("c", "b");
        assertThat(page.next()).containsExactly(Resume.DONE, Resume.START);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 7, 10, 25})
    void pages_randomShards_everyItemOnceInOrderAndFullPages(int limit) {
        Random random = new Random(limit);
        for (int round = 0; round < 40; round++) {
            int k = 1 + random.nextInt(6);
            List<List<Position>> raw = new ArrayList<>();
            IntStream.range(0, k).forEach(s -> raw.add(new ArrayList<>()));
            int n = random.nextInt(30);
            for (int i = 0; i < n; i++) {
                // Few distinct sort values, so that ties across shards are common.
                raw.get(random.nextInt(k)).add(p(Integer.toString(random.nextInt(5)), String.format("id%03d", i)));
            }
            Shards shards = new Shards(raw.stream().map(list -> list.stream().sorted(DESCENDING).toList()).toList());

            List<List<Position>> pages = pages(shards, limit);

            List<Position> all = concat(pages);
            assertThat(all).isEqualTo(shards.all());
            assertThat(new HashSet<>(all)).hasSize(n);
            for (int i = 0; i < pages.size() - 1; i++) {
                assertThat(pages.get(i)).hasSize(limit);
            }
            if (n == 0) {
                assertThat(pages).containsExactly(List.of());
            } else {
                // Never an empty page at the end: the extra item per query tells the last page.
                assertThat(pages.get(pages.size() - 1)).isNotEmpty();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void pages_queriesStoppedBeforeTheLimit_endPagesEarlyWithoutGapsOrRepeats(int cap) {
        Random random = new Random(cap);
        List<List<Position>> raw = new ArrayList<>(List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>()));
        for (int i = 0; i < 40; i++) {
            raw.get(random.nextInt(3)).add(p(Integer.toString(random.nextInt(10)), String.format("id%03d", i)));
        }
        Shards shards = new Shards(raw.stream().map(list -> list.stream().sorted(DESCENDING).toList()).toList(), cap);

        List<Position> all = concat(pages(shards, 5));

        assertThat(all).isEqualTo(shards.all());
    }

    @Test
    void merge_queryReturnedNothingButHasMore_movesTheShardToWhereItStopped() {
        Position stoppedAt = p("5", "q");
        List<Resume> from = List.of(Resume.START, Resume.after(p("9", "z")));

        MergedPage<Position> page = merge.merge(from,
                List.of(new ShardRead<>(List.of(p("7", "a")), null), new ShardRead<>(List.of(), stoppedAt)), 5);

        // Shard 1 may still hold something before "a": the page ends before it.
        assertThat(page.items()).isEmpty();
        assertThat(page.next()).containsExactly(Resume.START, Resume.after(stoppedAt));
    }

    @Test
    void cursor_roundTrip_restoresEveryShardState() {
        List<Resume> next = List.of(Resume.START, Resume.DONE, Resume.after(p("2026-11-22T10:00:00.123Z#p1", "p1")));

        String cursor = ShardMerge.encode(cursors, SCOPE, next);

        assertThat(cursor).matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");
        assertThat(ShardMerge.decode(cursors, SCOPE, cursor, 3, p -> true)).isEqualTo(next);
    }

    @Test
    void encode_everyShardDone_isNull() {
        assertThat(ShardMerge.encode(cursors, SCOPE, List.of(Resume.DONE, Resume.DONE))).isNull();
    }

    @Test
    void decode_noCursor_startsEveryShard() {
        assertThat(ShardMerge.decode(cursors, SCOPE, null, 3, p -> true)).containsExactly(Resume.START, Resume.START, Resume.START);
    }

    @Test
    void decode_cursorOfAnotherList_isBadRequest() {
        String cursor = ShardMerge.encode(cursors, SCOPE, List.of(Resume.START, Resume.DONE));

        assertInvalid(() -> ShardMerge.decode(cursors, "another-list", cursor, 2, p -> true));
    }

    @Test
    void decode_cursorForAnotherShardCount_isBadRequest() {
        String cursor = ShardMerge.encode(cursors, SCOPE, List.of(Resume.START, Resume.DONE));

        assertInvalid(() -> ShardMerge.decode(cursors, SCOPE, cursor, 3, p -> true));
    }

    @Test
    void decode_positionTheListRejects_isBadRequest() {
        String cursor = ShardMerge.encode(cursors, SCOPE, List.of(Resume.after(p("x", "y"))));

        assertInvalid(() -> ShardMerge.decode(cursors, SCOPE, cursor, 1, p -> false));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{}", "\"start\"", "[]", "[\"start\",\"done\",\"start\"]", "[\"begin\",\"done\"]", "[1,\"done\"]",
        "[[\"a\"],\"done\"]", "[[\"a\",\"b\",\"c\"],\"done\"]", "[[\"a\",2],\"done\"]", "[{\"sort\":\"a\",\"id\":\"b\"},\"done\"]",
        "[null,\"start\"]", "[\"done\",\"done\"]"})
    void decode_signedPayloadOfTheWrongShape_isBadRequest(String payload) throws Exception {
        JsonNode json = Json.MAPPER.readTree(payload);
        String cursor = cursors.sign(SCOPE, json);

        assertInvalid(() -> ShardMerge.decode(cursors, SCOPE, cursor, 2, p -> true));
    }

    @Test
    void decode_keyCursorOfAnotherList_isBadRequest() {
        String keyCursor = cursors.encode(SCOPE, java.util.Map.of("pk",
                software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("USER#u1")));

        assertInvalid(() -> ShardMerge.decode(cursors, SCOPE, keyCursor, 1, p -> true));
    }

    @Test
    void merge_readsNotMatchingTheShards_isRefused() {
        assertThatThrownBy(() -> merge.merge(List.of(Resume.DONE), java.util.Collections.singletonList(
                new ShardRead<>(List.of(), null)), 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> merge.merge(List.of(Resume.START), List.of(), 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static void assertInvalid(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.BAD_REQUEST);
            assertThat(e.field()).isEqualTo("cursor");
        });
    }
}
