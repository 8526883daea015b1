package io.tally.domains.favs;

import io.tally.core.derive.Cascade;
import io.tally.core.derive.CascadeRunner;
import io.tally.core.derive.ConditionalRemovals;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Removes the tag links of an un-collected favourite or a deleted tag: find them with consistent reads, delete each on
 * the condition that it still belongs to the removed incarnation ({@link ConditionalRemovals}). Idempotent: a repeated
 * run finds fewer or none, and a link removed meanwhile (or replaced by one of a later favourite or tag) is refused
 * and left alone.
 */
public final class DynamoDbLinkCascades implements CascadeRunner {
    private final ConditionalRemovals removals;

    public DynamoDbLinkCascades(DynamoDbClient dynamo, String table) {
        this.removals = new ConditionalRemovals(dynamo, table);
    }

    /**
     * A favourite's links are its link partition. A tag's are found through the user's favourites (the LinksByTag
     * index would name them in one query, but it is eventually consistent): every link of the tag lies in the link
     * partition of a favourite that exists, or of one that was un-collected, whose own cascade removes it.
     */
    @Override
    public int run(Cascade cascade) {
        if (cascade instanceof FavouriteLinks favourite) {
            return removals.removeInPartition(FavKeys.linksPk(favourite.userId(), favourite.favouriteId()),
                    FavouriteTag.FAVOURITE_INCARNATION, favourite.incarnation());
        }
        if (cascade instanceof TagLinks tag) {
            return removals.removeAcross(FavKeys.favouritesPk(tag.userId()), FavKeys.FAV_PREFIX,
                    Favourite.FAVOURITE_ID, favouriteId -> FavKeys.link(tag.userId(), favouriteId, tag.tagId()),
                    FavouriteTag.TAG_INCARNATION, tag.incarnation());
        }
        throw new IllegalArgumentException("not a link cascade: " + cascade.describe());
    }
}
