package io.tally.stream.engine;

import io.tally.core.DerivedType;
import io.tally.core.Key;
import io.tally.core.derive.Document;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The contributions of one batch's records to one derived item, by sequence number. Kept per record, not summed
 * up front, because the part to write depends on the item's watermark and document revision, known only when a
 * write is refused.
 */
final class KeyContributions {
    /**
     * The most attributes one write changes (counters added, document values set or removed). DynamoDB takes an
     * update expression of at most 4 KB; each of these costs at most 15 bytes of it ({@code #s199 = :s199, }) besides
     * the type, the watermark and the revision, so 200 stay under 3.2 KB. A batch whose records together change more
     * of one item is written in several writes, each of a run of consecutive records: the same writes as smaller
     * batches would make.
     */
    static final int MAX_ATTRIBUTES_PER_WRITE = 200;

    private final Key key;
    private final String shardId;
    private DerivedType type;
    private final TreeMap<String, Pending> bySequence = new TreeMap<>();

    private static final class Pending {
        private final Map<String, Long> counters = new HashMap<>();
        private Document document;

        /** The attributes of the item this record's contributions change. */
        private Set<String> attributes() {
            Set<String> attributes = new HashSet<>(counters.keySet());
            if (document != null) {
                attributes.addAll(document.values().keySet());
                attributes.addAll(document.owned());
            }
            return attributes;
        }
    }

    KeyContributions(Key key, String shardId) {
        this.key = key;
        this.shardId = shardId;
    }

    Key key() {
        return key;
    }

    void addCounter(String paddedSequence, DerivedType counterType, String attribute, long delta) {
        typeFrom(counterType);
        bySequence.computeIfAbsent(paddedSequence, s -> new Pending()).counters.merge(attribute, delta, Long::sum);
    }

    void addDocument(String paddedSequence, Document document) {
        typeFrom(document.type());
        bySequence.computeIfAbsent(paddedSequence, s -> new Pending()).document = document;
    }

    DerivedType type() {
        return type;
    }

    /** The lowest sequence number after {@code watermark} (null: none known), or null when there is none. */
    String lowestAfter(String watermark) {
        SortedMap<String, Pending> after = after(watermark);
        return after.isEmpty() ? null : after.firstKey();
    }

    /** The sequence numbers after {@code watermark} (null: all), in order. */
    List<String> sequencesAfter(String watermark) {
        return List.copyOf(after(watermark).keySet());
    }

    /**
     * The write of the contributions after the item's watermark, conditioned on it; empty when none is left. It holds
     * the records after the watermark, in order, as long as together they change at most
     * {@link #MAX_ATTRIBUTES_PER_WRITE} attributes (always at least one record): the rest go in the next write, after
     * this one's last record ({@link DerivedWrite#lastSequence()}).
     *
     * <p>{@code known} is what a refused attempt returned of the item (null before any): its watermark for this shard,
     * which the write then expects (a value, or none at all), and the revision of its document. The write holds
     * the last document after the watermark unless the item holds a newer one (its revision above the document's),
     * written first by another shard; then it keeps the counters and the watermark move and leaves the document
     * out. No condition on the revision is needed for that: every document write requires the stored revision to
     * be at most its own, so the stored revision only grows, and a document it has passed stays passed.
     *
     * <p>Contributions that cancel out (a comment added and deleted in one batch) are still written, as a write
     * that only moves the watermark: with the watermark unknown, some of them may have been applied by an earlier
     * attempt whose batch ended between them, and the rest must then be applied; and a batch that reports a
     * failure at F promises that every contribution before F is in the item, which a skipped write whose
     * cancelling partner lies after F would break.
     */
    Optional<DerivedWrite> writeAfter(DerivedStore.Refused known) {
        String watermark = known == null ? null : known.watermark();
        SortedMap<String, Pending> after = within(after(watermark));
        if (after.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Long> sums = new HashMap<>();
        Document last = null;
        for (Pending pending : after.values()) {
            pending.counters.forEach((attribute, delta) -> sums.merge(attribute, delta, Long::sum));
            if (pending.document != null) {
                last = pending.document;
            }
        }
        sums.values().removeIf(sum -> sum == 0);
        if (last != null && known != null && known.revision() != null && known.revision() > last.revision()) {
            last = null;
        }
        Map<String, AttributeValue> set = last == null ? Map.of() : last.values();
        Set<String> remove = new HashSet<>();
        if (last != null) {
            remove.addAll(last.owned());
            remove.removeAll(last.values().keySet());
        }
        Set<String> removable = new HashSet<>();
        for (String counter : sums.keySet()) {
            if (type.counterFamilies().stream().anyMatch(counter::startsWith)) {
                removable.add(counter);
            }
        }
        return Optional.of(new DerivedWrite(key, type.entityType(), sums, set, remove,
                last == null ? null : last.revision(), shardId, after.firstKey(), after.lastKey(), known != null, watermark,
                removable));
    }

    /**
     * The longest run of the records from the first whose contributions change at most
     * {@link #MAX_ATTRIBUTES_PER_WRITE} attributes together (the first record alone when it changes more).
     */
    private static SortedMap<String, Pending> within(SortedMap<String, Pending> records) {
        Set<String> attributes = new HashSet<>();
        String end = null;
        for (Map.Entry<String, Pending> record : records.entrySet()) {
            attributes.addAll(record.getValue().attributes());
            if (attributes.size() > MAX_ATTRIBUTES_PER_WRITE && end != null) {
                return records.headMap(record.getKey());
            }
            end = record.getKey();
        }
        return records;
    }

    private SortedMap<String, Pending> after(String watermark) {
        return watermark == null ? bySequence : bySequence.tailMap(watermark, false);
    }

    private void typeFrom(DerivedType contributed) {
        if (type == null) {
            type = contributed;
        } else if (type != contributed) {
            throw new IllegalArgumentException("derivations disagree on the type of " + key + ": " + type
                    + " and " + contributed);
        }
    }
}
