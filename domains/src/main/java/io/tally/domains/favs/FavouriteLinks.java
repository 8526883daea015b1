package io.tally.domains.favs;

import io.tally.core.derive.Cascade;
import io.tally.core.derive.ConditionalRemovals;

/** The tag links of an un-collected favourite: those in its link partition that were added to this incarnation of it. */
public record FavouriteLinks(String userId, String favouriteId, String incarnation) implements Cascade {
    /** What an un-collected favourite's last state asks to remove. */
    static FavouriteLinks of(Favourite favourite) {
        return new FavouriteLinks(favourite.userId(), favourite.favouriteId(), favourite.incarnation());
    }

    /** The cascade that would remove a link: its favourite's, of the incarnation it was made with. */
    static FavouriteLinks of(FavouriteTag link) {
        return new FavouriteLinks(link.userId(), link.favouriteId(), link.favourite().incarnation());
    }

    /** Its link partition. */
    @Override
    public int removeWith(ConditionalRemovals removals) {
        return removals.removeInPartition(FavKeys.linksPk(userId, favouriteId), FavouriteTag.FAVOURITE_INCARNATION,
                incarnation);
    }
}
