package io.tally.core.read;

import io.tally.core.EntityType;
import io.tally.core.Items;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The rules every domain's read side renders derived items by. A derived item that does not exist yet, or lacks a
 * counter, reads as zero: it only means the stream processor has not counted anything there (yet).
 */
public final class StatsJson {
    private StatsJson() {
    }

    /** A counter of a derived item; zero when the item or the counter is not there (yet). */
    public static long counter(Map<String, AttributeValue> item, String name) {
        return item == null || !item.containsKey(name) ? 0 : Items.number(item, name);
    }

    /** A present item must be of the expected kind, so that a key mix-up shows as an error, not as numbers. */
    public static void check(Map<String, AttributeValue> item, EntityType expected) {
        if (item != null) {
            Items.expectType(item, expected);
        }
    }
}
