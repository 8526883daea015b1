package io.tally.stream.engine;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.Key;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One idempotent write of one derived item: the coalesced effect of the records of one shard with sequence
 * numbers {@code firstSequence..lastSequence} that are not yet applied to the item.
 *
 * @param key               the derived item
 * @param type              its entity type, written only if the item has none yet
 * @param counterAdds       amounts added to number attributes (never zero)
 * @param documentSet       document attributes set to these values
 * @param documentRemove    document attributes removed
 * @param documentRevision  the revision of the document written ({@code documentSet} and {@code documentRemove}),
 *                          stored as the item's {@code srcRev}; the write lands only if the item holds no newer
 *                          document. Null when the write holds no document.
 * @param shardId           the stream shard the records came from; names the watermark attribute
 * @param firstSequence     the lowest applied sequence number, zero-padded
 * @param lastSequence      the highest applied sequence number, zero-padded; the new watermark
 * @param watermarkKnown    whether the item's watermark is known (from a refused attempt); false on the first attempt
 * @param expectedWatermark the watermark the item is known to hold; null when it is known to hold none, or when it
 *                          is not known
 * @param removableCounters the counters of {@code counterAdds} that the item drops when the write leaves them at zero:
 *                          those of a counter family (named at run time, such as a tag's), which would otherwise
 *                          stay on the item for good after their subject went away. A declared counter stays at zero,
 *                          which reads as an absent one: removing it would take a second write, and a second write
 *                          unit, every time it comes back to zero.
 */
public record DerivedWrite(Key key, EntityType type, Map<String, Long> counterAdds,
                           Map<String, AttributeValue> documentSet, Set<String> documentRemove, Long documentRevision,
                           String shardId, String firstSequence, String lastSequence,
                           boolean watermarkKnown, String expectedWatermark, Set<String> removableCounters) {

    /** A write whose counters all stay on the item at zero. */
    public DerivedWrite(Key key, EntityType type, Map<String, Long> counterAdds,
                        Map<String, AttributeValue> documentSet, Set<String> documentRemove, Long documentRevision,
                        String shardId, String firstSequence, String lastSequence,
                        boolean watermarkKnown, String expectedWatermark) {
        this(key, type, counterAdds, documentSet, documentRemove, documentRevision, shardId, firstSequence,
                lastSequence, watermarkKnown, expectedWatermark, Set.of());
    }

    public DerivedWrite {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(shardId, "shardId");
        Objects.requireNonNull(firstSequence, "firstSequence");
        Objects.requireNonNull(lastSequence, "lastSequence");
        if (!type.isDerived()) {
            throw new IllegalArgumentException("only derived items are written by the stream processor: " + type);
        }
        counterAdds = Map.copyOf(counterAdds);
        documentSet = Map.copyOf(documentSet);
        documentRemove = Set.copyOf(documentRemove);
        removableCounters = Set.copyOf(removableCounters);
        if (!counterAdds.keySet().containsAll(removableCounters)) {
            throw new IllegalArgumentException("removable counters the write does not add to: " + removableCounters);
        }
        requirePadded(firstSequence);
        requirePadded(lastSequence);
        if (expectedWatermark != null) {
            if (!watermarkKnown) {
                throw new IllegalArgumentException("an expected watermark is a known one: " + expectedWatermark);
            }
            requirePadded(expectedWatermark);
        }
        if (firstSequence.compareTo(lastSequence) > 0) {
            throw new IllegalArgumentException("first sequence after last: " + firstSequence + " > " + lastSequence);
        }
        if (counterAdds.containsValue(0L)) {
            throw new IllegalArgumentException("zero counter adds are not written: " + counterAdds);
        }
        boolean document = !documentSet.isEmpty() || !documentRemove.isEmpty();
        if (document != (documentRevision != null) || documentRevision != null && documentRevision < 0) {
            throw new IllegalArgumentException("a document write carries its revision (at least 0), and only a"
                    + " document write does: " + documentRevision);
        }
        // DynamoDB rejects an update expression that touches one path twice; a reserved name would corrupt the key,
        // the routing or the exactly-once bookkeeping.
        Set<String> seen = new HashSet<>();
        for (Set<String> names : java.util.List.of(counterAdds.keySet(), documentSet.keySet(), documentRemove)) {
            for (String name : names) {
                if (DerivedType.isReserved(name)) {
                    throw new IllegalArgumentException("reserved attribute in a derived write: " + name);
                }
                if (!seen.add(name)) {
                    throw new IllegalArgumentException("attribute written twice in one derived write: " + name);
                }
            }
        }
    }

    public String watermarkAttribute() {
        return Watermarks.attributeName(shardId);
    }

    /** Whether the write sets (or removes) the item's document. */
    public boolean hasDocument() {
        return documentRevision != null;
    }

    private static void requirePadded(String sequence) {
        if (sequence.length() != SourceRecord.SEQUENCE_DIGITS || !sequence.chars().allMatch(Character::isDigit)) {
            throw new IllegalArgumentException("not a zero-padded sequence number: " + sequence);
        }
    }
}
