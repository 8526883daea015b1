package io.tally.domains.favs;

import io.tally.core.derive.Cascade;
import io.tally.core.derive.ConditionalRemovals;

/** The links of a deleted tag: those, on any favourite of its user, of this incarnation of it. */
public record TagLinks(String userId, String tagId, String incarnation) implements Cascade {
    /** What a deleted tag's last state asks to remove. */
    static TagLinks of(Tag tag) {
        return new TagLinks(tag.userId(), tag.tagId(), tag.incarnation());
    }

    /** The cascade that would remove a link: its tag's, of the incarnation it was made with. */
    static TagLinks of(FavouriteTag link) {
        return new TagLinks(link.userId(), link.tagId(), link.tagIncarnation());
    }

    /**
     * Found through the user's favourites (the LinksByTag index would name them in one query, but it is eventually
     * consistent): every link of the tag lies in the link partition of a favourite that exists, or of one that was
     * un-collected, whose own cascade removes it.
     */
    @Override
    public int removeWith(ConditionalRemovals removals) {
        return removals.removeAcross(FavKeys.favouritesPk(userId), FavKeys.FAV_PREFIX, Favourite.FAVOURITE_ID,
                favouriteId -> FavKeys.link(userId, favouriteId, tagId), FavouriteTag.TAG_INCARNATION, incarnation);
    }
}
