package io.tally.domains.catalogue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.Items;
import io.tally.core.Timestamps;
import io.tally.core.http.Json;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The contract's JSON shapes of the learning catalogue, fields in the documented order. Absent optional fields
 * are written as null rather than left out, so that every response of one kind has the same fields.
 */
public final class CatalogueJson {
    private CatalogueJson() {
    }

    public static ObjectNode item(CatalogueItem item) {
        ObjectNode json = Json.object();
        json.put("itemId", item.itemId());
        json.put("title", item.title());
        json.put("score", item.score());
        json.put("selector", item.selector());
        json.put("updatedAt", Timestamps.format(item.updatedAt()));
        return json;
    }

    /** A user's item; the authoritative item and its list entry render alike. */
    public static ObjectNode userItem(UserItem item) {
        ObjectNode json = Json.object();
        json.put("userId", item.userId());
        json.put("itemId", item.itemId());
        json.put("state", item.state().value());
        json.put("score", item.score());
        json.put("progress", item.progress());
        json.put("correct", item.correct());
        json.put("live", item.live());
        json.put("enteredAt", Timestamps.format(item.enteredAt()));
        json.put("updatedAt", Timestamps.format(item.updatedAt()));
        return json;
    }

    /** A selector entry: {@code {"itemId", "title", "score"}}, the title null when the item has none. */
    public static ObjectNode selectorEntry(Map<String, AttributeValue> item) {
        Items.expectType(item, Catalogue.SELECTOR_ENTRY.entityType());
        ObjectNode json = Json.object();
        json.put("itemId", Items.string(item, Catalogue.Entry.ITEM_ID));
        json.put("title", Items.optionalString(item, Catalogue.Entry.TITLE));
        json.put("score", Items.number(item, Catalogue.Entry.SCORE));
        return json;
    }
}
