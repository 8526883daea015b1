package io.tally.domains.favs;

import io.tally.core.derive.Cascade;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.EntityDerivation;
import io.tally.core.events.DomainEvent;
import io.tally.core.events.EventType;
import java.time.Instant;
import java.util.List;

/**
 * A link's events and the cascades that remove it (it counts in its user's {@code tag:<tagId>} through a view,
 * {@link FavFigures}, whoever removes it: the API, or the stream processor's cascade after its favourite or tag was
 * removed). {@code FavouriteTagged} when a link appears,
 * {@code FavouriteUntagged} when it goes; a link replaced by one of a later favourite or tag of the same ids is both. A
 * link whose favourite or tag is gone with no cascade having removed it (removed before the stream began) is found by
 * the rebuild through {@link #removedBy}.
 */
public final class FavouriteTagDerivation extends EntityDerivation<FavouriteTag> {
    public static final EventType FAVOURITE_TAGGED = EventType.of("FavouriteTagged", LinkDetail.class);
    public static final EventType FAVOURITE_UNTAGGED = EventType.of("FavouriteUntagged", LinkDetail.class);

    /** The detail of {@code FavouriteTagged} and {@code FavouriteUntagged}. */
    public record LinkDetail(String eventId, String userId, String favouriteId, String tagId, FavouriteType type,
                             Instant linkedAt) {
    }

    public FavouriteTagDerivation() {
        super(Favs.FAVOURITE_TAG, FavouriteTag::fromItem);
    }

    /** Its figure is the view's ({@link FavFigures}): nothing of its own. */
    @Override
    protected Contribution contribution(FavouriteTag link) {
        return Contribution.NONE;
    }

    /**
     * The cascades that remove this link: its favourite's un-collect and its tag's deletion, each of the incarnation
     * the link was made with (what {@link FavouriteDerivation} and {@link TagDerivation} ask for on a removal).
     */
    @Override
    protected List<Cascade> removedBy(FavouriteTag link) {
        return List.of(new FavouriteLinks(link.userId(), link.favouriteId(), link.favourite().incarnation()),
                new TagLinks(link.userId(), link.tagId(), link.tagIncarnation()));
    }

    @Override
    protected List<DomainEvent> events(String eventId, FavouriteTag before, FavouriteTag after) {
        return replaced(before, after, FavouriteTag::sameAs, link -> event(eventId, FAVOURITE_UNTAGGED, link),
                link -> event(eventId, FAVOURITE_TAGGED, link));
    }

    private static DomainEvent event(String eventId, EventType detailType, FavouriteTag link) {
        return DomainEvent.about(eventId, detailType, link.userId() + "/" + link.favouriteId() + "/" + link.tagId(),
                id -> new LinkDetail(id, link.userId(), link.favouriteId(), link.tagId(), link.favourite().type(),
                        link.linkedAt()));
    }
}
