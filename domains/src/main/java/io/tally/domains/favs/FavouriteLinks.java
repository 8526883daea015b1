package io.tally.domains.favs;

import io.tally.core.derive.Cascade;
import io.tally.core.derive.ConditionalRemovals;

/** The tag links of an un-collected favourite: those in its link partition that were added to this incarnation of it. */
public record FavouriteLinks(String userId, String favouriteId, String incarnation) implements Cascade {
    /** Its link partition. */
    @Override
    public int removeWith(ConditionalRemovals removals) {
        return removals.removeInPartition(FavKeys.linksPk(userId, favouriteId), FavouriteTag.FAVOURITE_INCARNATION,
                incarnation);
    }
}
