package io.tally.core.read;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.tally.core.http.Cursors;
import io.tally.core.http.Json;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One list read from K index partitions ("shards") that each hold part of it in the list's order: a k-way
 * merge with one cursor for all shards. Pure: the caller queries every shard that is not exhausted from
 * {@link Resume#after()} (one Query each, asking for one item more than the page), hands the results to
 * {@link #merge}, and gets the page and where every shard continues.
 *
 * <p>The cursor holds a position per shard rather than the last item of the page, because the only thing a
 * shard's order is guaranteed to agree with is itself: an index orders items with equal range keys as it
 * pleases, so "after the last item of the page" would not name one place in every shard. Each shard is read
 * in its own order and resumed after the last item taken from it, so no item is skipped or repeated whatever
 * the tie order; the list's order only decides how the shards interleave.
 *
 * @param <T> an item as read from a shard
 */
public final class ShardMerge<T> {
    private static final String START = "start";
    private static final String DONE = "done";

    /**
     * Where an item sits in its shard: the index's range value as text and the item's id. It becomes the
     * exclusive start key of the shard's next query.
     */
    public record Position(String sort, String id) {
        public Position {
            Objects.requireNonNull(sort, "sort");
            Objects.requireNonNull(id, "id");
        }
    }

    /**
     * Where one shard continues: from its beginning ({@link #START}), after a position, or nowhere ({@link #DONE}).
     */
    public record Resume(Position after, boolean done) {
        public static final Resume START = new Resume(null, false);
        public static final Resume DONE = new Resume(null, true);

        public Resume {
            if (done && after != null) {
                throw new IllegalArgumentException("an exhausted shard has no position");
            }
        }

        public static Resume after(Position position) {
            return new Resume(Objects.requireNonNull(position, "position"), false);
        }
    }

    /**
     * One query of one shard.
     *
     * @param items         in the shard's order
     * @param lastEvaluated the position of the query's {@code LastEvaluatedKey}, or null when the shard ended
     */
    public record ShardRead<T>(List<T> items, Position lastEvaluated) {
        public ShardRead {
            items = List.copyOf(items);
        }
    }

    /**
     * A page of the merged list.
     *
     * @param items at most the limit, in the list's order
     * @param next  where every shard continues; all {@link Resume#DONE} on the last page
     */
    public record MergedPage<T>(List<T> items, List<Resume> next) {
        public MergedPage {
            items = List.copyOf(items);
            next = List.copyOf(next);
        }

        public boolean hasMore() {
            return next.stream().anyMatch(resume -> !resume.done());
        }
    }

    private final Function<T, Position> position;
    private final Comparator<Position> order;

    /**
     * @param position where an item sits in its shard
     * @param order    the list's order: an item that sorts first comes first; it must agree with every
     *                 shard's own order wherever that order is defined
     */
    public ShardMerge(Function<T, Position> position, Comparator<Position> order) {
        this.position = Objects.requireNonNull(position, "position");
        this.order = Objects.requireNonNull(order, "order");
    }

    /** The first page: every shard from its beginning. */
    public static List<Resume> start(int shards) {
        return Collections.nCopies(shards, Resume.START);
    }

    /**
     * Merges one read of every shard into a page of at most {@code limit} items.
     *
     * <p>A shard that has more items than it returned (its query stopped at DynamoDB's 1 MB cap) and whose
     * returned items are all taken ends the page early: its next item is unknown and might come before any item
     * still waiting in the other shards. Asking each shard for {@code limit + 1} items makes this rare and tells
     * the last page from one that merely ended at the limit.
     *
     * @param from  where each shard was read from
     * @param reads the read of each shard, null exactly for the shards that were {@link Resume#DONE}
     */
    public MergedPage<T> merge(List<Resume> from, List<ShardRead<T>> reads, int limit) {
        if (from.size() != reads.size()) {
            throw new IllegalArgumentException(from.size() + " shards but " + reads.size() + " reads");
        }
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1: " + limit);
        }
        int shards = from.size();
        for (int s = 0; s < shards; s++) {
            if (from.get(s).done() != (reads.get(s) == null)) {
                throw new IllegalArgumentException("shard " + s + ": read exactly the shards that are not done");
            }
        }
        int[] taken = new int[shards];
        List<T> page = new ArrayList<>(limit);
        while (page.size() < limit) {
            int best = -1;
            Position bestPosition = null;
            boolean blocked = false;
            for (int s = 0; s < shards; s++) {
                ShardRead<T> read = reads.get(s);
                if (read == null) {
                    continue;
                }
                if (taken[s] < read.items().size()) {
                    Position head = position.apply(read.items().get(taken[s]));
                    // Strictly before: on a tie the lower shard wins, so the merge is deterministic.
                    if (best < 0 || order.compare(head, bestPosition) < 0) {
                        best = s;
                        bestPosition = head;
                    }
                } else if (read.lastEvaluated() != null) {
                    blocked = true;
                }
            }
            if (blocked || best < 0) {
                break;
            }
            page.add(reads.get(best).items().get(taken[best]));
            taken[best]++;
        }
        List<Resume> next = new ArrayList<>(shards);
        for (int s = 0; s < shards; s++) {
            next.add(next(from.get(s), reads.get(s), taken[s]));
        }
        return new MergedPage<>(page, next);
    }

    private Resume next(Resume from, ShardRead<T> read, int taken) {
        if (read == null) {
            return Resume.DONE;
        }
        if (taken == read.items().size() && read.lastEvaluated() == null) {
            return Resume.DONE;
        }
        if (taken > 0) {
            return Resume.after(position.apply(read.items().get(taken - 1)));
        }
        // Nothing taken. Only a query that returned nothing yet has more moves the shard on, to where it stopped.
        return read.items().isEmpty() ? Resume.after(read.lastEvaluated()) : from;
    }

    /**
     * The cursor of the next page, or null when every shard is exhausted. The payload is a JSON array with one
     * element per shard: {@code "start"}, {@code "done"} or {@code [sort, id]}.
     */
    public static String encode(Cursors cursors, String scope, List<Resume> next) {
        if (next.stream().allMatch(Resume::done)) {
            return null;
        }
        ArrayNode payload = Json.MAPPER.createArrayNode();
        for (Resume resume : next) {
            if (resume.done()) {
                payload.add(DONE);
            } else if (resume.after() == null) {
                payload.add(START);
            } else {
                payload.addArray().add(resume.after().sort()).add(resume.after().id());
            }
        }
        return cursors.sign(scope, payload);
    }

    /**
     * Where each of {@code shards} shards continues: from a cursor issued by {@link #encode} for {@code scope},
     * or from the start when there is none. A cursor whose payload does not have exactly that structure, or
     * whose positions fail {@code valid}, is a {@code bad_request} naming {@code cursor}, even when it is
     * correctly signed: the shard count may have changed since it was issued.
     */
    public static List<Resume> decode(Cursors cursors, String scope, String cursor, int shards,
                                      Predicate<Position> valid) {
        JsonNode payload = cursors.verify(scope, cursor);
        if (payload == null) {
            return start(shards);
        }
        if (!payload.isArray() || payload.size() != shards) {
            throw Cursors.invalidCursor();
        }
        List<Resume> resumes = new ArrayList<>(shards);
        for (JsonNode element : payload) {
            resumes.add(resume(element, valid));
        }
        // encode never issues a cursor with nothing left to read.
        if (resumes.stream().allMatch(Resume::done)) {
            throw Cursors.invalidCursor();
        }
        return List.copyOf(resumes);
    }

    private static Resume resume(JsonNode element, Predicate<Position> valid) {
        if (element.isTextual() && element.textValue().equals(START)) {
            return Resume.START;
        }
        if (element.isTextual() && element.textValue().equals(DONE)) {
            return Resume.DONE;
        }
        if (element.isArray() && element.size() == 2 && element.get(0).isTextual() && element.get(1).isTextual()) {
            Position position = new Position(element.get(0).textValue(), element.get(1).textValue());
            if (valid.test(position)) {
                return Resume.after(position);
            }
        }
        throw Cursors.invalidCursor();
    }
}
