package io.tally.domains.favs;

import io.tally.core.derive.Cascade;
import io.tally.core.derive.CascadeRunner;
import io.tally.core.derive.ConditionalRemovals;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * Removes the tag links of an un-collected favourite or a deleted tag: find them with consistent reads, delete each on
 * the condition that it still belongs to the removed incarnation. Idempotent, as the membership cascade.
 */
public final class DynamoDbLinkCascades implements CascadeRunner {
    private final ConditionalRemovals removals;
    private final String table;

    public DynamoDbLinkCascades(DynamoDbClient dynamo, String table) {
        this.removals = new ConditionalRemovals(dynamo, table);
        this.table = table;
    }

    @Override
    public int run(Cascade cascade) {
        if (cascade instanceof FavouriteLinks favourite) {
            return run(favourite);
        }
        if (cascade instanceof TagLinks tag) {
            return run(tag);
        }
        throw new IllegalArgumentException("not a link cascade: " + cascade.describe());
    }

    private int run(FavouriteLinks cascade) {
        int removed = 0;
        Map<String, AttributeValue> start = null;
        do {
            QueryResponse page = removals.query(LinkCascadeRequests.favouriteLinks(table, cascade, start));
            for (Map<String, AttributeValue> item : page.items()) {
                if (ConditionalRemovals.isOf(item, FavouriteTag.FAVOURITE_INCARNATION, cascade.incarnation())) {
                    removed += removals.removeIf(ConditionalRemovals.keyOf(item), FavouriteTag.FAVOURITE_INCARNATION,
                            cascade.incarnation());
                }
            }
            start = ConditionalRemovals.next(page);
        } while (start != null);
        return removed;
    }

    private int run(TagLinks cascade) {
        int removed = 0;
        Map<String, AttributeValue> start = null;
        do {
            QueryResponse page = removals.query(LinkCascadeRequests.favourites(table, cascade, start));
            List<String> favouriteIds = page.items().stream().map(item -> item.get(Favourite.FAVOURITE_ID).s()).toList();
            for (int from = 0; from < favouriteIds.size(); from += ConditionalRemovals.BATCH_KEYS) {
                List<String> chunk = favouriteIds.subList(from,
                        Math.min(favouriteIds.size(), from + ConditionalRemovals.BATCH_KEYS));
                for (Map<String, AttributeValue> item : removals.batchGet(
                        LinkCascadeRequests.tagLinks(table, cascade, chunk))) {
                    if (ConditionalRemovals.isOf(item, FavouriteTag.TAG_INCARNATION, cascade.incarnation())) {
                        removed += removals.removeIf(ConditionalRemovals.keyOf(item), FavouriteTag.TAG_INCARNATION,
                                cascade.incarnation());
                    }
                }
            }
            start = ConditionalRemovals.next(page);
        } while (start != null);
        return removed;
    }
}
