package io.tally.core;

import static io.tally.core.Items.n;
import static io.tally.core.Items.s;
import static io.tally.core.Items.ts;
import static io.tally.core.Items.type;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A learning-catalogue item (seed 003). The requested selector is stored as {@code itemSelector}, not as the
 * index attribute {@code selector}: the CycleSelector index holds only the selector entries that the stream
 * processor derives (one per item, the back catalogue spread over shards), so an item never appears twice.
 */
public record CatalogueItem(String itemId, String title, long score, String selector, Instant updatedAt) {
    public static final long MAX_SCORE = 1_000_000_000L;

    public Key key() {
        return Keys.catalogueItem(itemId);
    }

    public Map<String, AttributeValue> toItem() {
        Map<String, AttributeValue> item = new HashMap<>(key().toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, type(EntityType.CATALOGUE_ITEM));
        item.put("itemId", s(itemId));
        if (title != null) {
            item.put("title", s(title));
        }
        item.put("score", n(score));
        item.put("itemSelector", s(selector));
        item.put("updatedAt", ts(updatedAt));
        return item;
    }

    public static CatalogueItem fromItem(Map<String, AttributeValue> item) {
        Items.expectType(item, EntityType.CATALOGUE_ITEM);
        return new CatalogueItem(
                Items.string(item, "itemId"),
                Items.optionalString(item, "title"),
                Items.number(item, "score"),
                Items.string(item, "itemSelector"),
                Items.instant(item, "updatedAt"));
    }
}
