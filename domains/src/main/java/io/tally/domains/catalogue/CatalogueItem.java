package io.tally.domains.catalogue;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.tally.core.ItemSchema;
import io.tally.core.Items;
import io.tally.core.Key;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A learning-catalogue item (seed 003). The requested selector is stored as {@code itemSelector}, not as the
 * index attribute {@code selector}: the CycleSelector index holds only the selector entries that the stream
 * processor derives (one per item, the back catalogue spread over shards), so an item never appears twice. The
 * record is both the item ({@link #SCHEMA}) and the contract's JSON.
 *
 * @param revision grows with every write of the item, also across a delete and a re-creation of the same id
 *                 ({@link #nextRevision}); the stream processor orders the item's selector entry by it. It is
 *                 bookkeeping, never part of the HTTP contract. An item written before revisions existed reads
 *                 as revision 0.
 */
@JsonPropertyOrder({"itemId", "title", "score", "selector", "updatedAt"})
public record CatalogueItem(String itemId, String title, long score, String selector, Instant updatedAt,
                            @JsonIgnore long revision) {
    /** Attribute names: the selector's, and the revision, which the put's condition compares. */
    public static final String ITEM_SELECTOR = "itemSelector";
    public static final String REVISION = "revision";

    public static final ItemSchema<CatalogueItem> SCHEMA =
            ItemSchema.of(CatalogueItem.class, Catalogue.CATALOGUE_ITEM, CatalogueItem::key)
                    .optional("title")
                    .notStored("selector")
                    .computed(ITEM_SELECTOR, CatalogueItem::selector)
                    .readBy(CatalogueItem::read)
                    .build();

    public static final long MAX_SCORE = 1_000_000_000L;

    /** The same item with another revision. */
    public CatalogueItem withRevision(long next) {
        return new CatalogueItem(itemId, title, score, selector, updatedAt, next);
    }

    /**
     * The revision of the next write of an item: above the previous one, and at least the writer's clock in epoch
     * microseconds.
     *
     * <p>The clock is what keeps revisions growing across a hard delete: the deleted item and its revision are gone,
     * so a re-creation of the same id cannot add one to it, and must still come after the removal (whose revision
     * the stream processor derives from the deleted item's). One item takes at most about one write per
     * millisecond (a partition takes 1,000 write units per second), so {@code previous + 1} never runs ahead of the
     * clock by more than a few microseconds, and a delete followed by a re-creation are at least a request apart:
     * the re-creation's clock reading is above every revision the item had. The residual risk is clock skew between
     * writers: a re-creation by a writer whose clock is behind the last writer's by more than the time between the
     * two requests gets a lower revision, and its selector entry stays removed until the item is written again (or
     * the rebuilder repairs it).
     *
     * @param previous the item's current revision, or 0 when it does not exist (or has none)
     */
    public static long nextRevision(long previous, Instant now) {
        long micros = Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1_000L);
        return Math.max(previous + 1, micros);
    }

    public Key key() {
        return CatalogueKeys.catalogueItem(itemId);
    }

    public Map<String, AttributeValue> toItem() {
        return SCHEMA.toItem(this);
    }

    /**
     * The selector from the attribute it is stored as; an item written before revisions existed reads as revision 0.
     */
    public static CatalogueItem fromItem(Map<String, AttributeValue> item) {
        return SCHEMA.fromItem(item);
    }

    /** The item's record (the schema checked its entity type). */
    private static CatalogueItem read(Map<String, AttributeValue> item) {
        Map<String, Object> given = new HashMap<>(Map.of("selector", Items.string(item, ITEM_SELECTOR)));
        if (!item.containsKey(REVISION)) {
            given.put(REVISION, 0L);
        }
        return SCHEMA.fields(item, given);
    }
}
