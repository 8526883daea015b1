package io.tally.domains.favs;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.tally.core.events.EventType;
import java.time.Instant;

/**
 * The favourites' events, which the changes of tags, favourites and links announce ({@link Favs} declares when): a
 * tag's creation, rename and deletion (an access, a new {@code lastAccessAt}, announces nothing); a favourite's collect
 * and un-collect; a link's appearance and departure, where a link replaced by one of a later favourite or tag of the
 * same ids is both. Each is about the user's ids: {@code <userId>/<tagId>}, {@code <userId>/<favouriteId>},
 * {@code <userId>/<favouriteId>/<tagId>}.
 */
public final class FavEvents {
    public static final EventType TAG_CREATED = EventType.of("TagCreated", TagDetail.class);
    public static final EventType TAG_RENAMED = EventType.of("TagRenamed", TagDetail.class);
    public static final EventType TAG_DELETED = EventType.of("TagDeleted", TagDetail.class);
    public static final EventType FAVOURITE_COLLECTED = EventType.of("FavouriteCollected", FavouriteDetail.class);
    public static final EventType FAVOURITE_UNCOLLECTED = EventType.of("FavouriteUncollected", FavouriteDetail.class);
    public static final EventType FAVOURITE_TAGGED = EventType.of("FavouriteTagged", LinkDetail.class);
    public static final EventType FAVOURITE_UNTAGGED = EventType.of("FavouriteUntagged", LinkDetail.class);

    /** The detail of {@code TagCreated}, {@code TagRenamed} and {@code TagDeleted}; only a rename has a previous name. */
    @JsonPropertyOrder({"eventId", "userId", "tagId", "name", "previousName", "createdAt"})
    public record TagDetail(String eventId, String userId, String tagId, String name,
                            @JsonInclude(JsonInclude.Include.NON_NULL) String previousName, Instant createdAt) {
        static TagDetail of(String eventId, Tag tag) {
            return new TagDetail(eventId, tag.userId(), tag.tagId(), tag.name(), null, tag.createdAt());
        }

        /** When a tag that stays changes its name; none for any other change. */
        static TagDetail renamed(String eventId, Tag before, Tag after) {
            return before == null || after == null || before.name().equals(after.name()) ? null : new TagDetail(
                    eventId, after.userId(), after.tagId(), after.name(), before.name(), after.createdAt());
        }

        static String subject(Tag tag) {
            return tag.userId() + "/" + tag.tagId();
        }
    }

    /** The detail of {@code FavouriteCollected} and {@code FavouriteUncollected}. */
    public record FavouriteDetail(String eventId, String userId, String favouriteId, FavouriteType type, String title,
                                  Instant clippedAt) {
        static FavouriteDetail of(String eventId, Favourite favourite) {
            return new FavouriteDetail(eventId, favourite.userId(), favourite.favouriteId(), favourite.type(),
                    favourite.title(), favourite.clippedAt());
        }

        static String subject(Favourite favourite) {
            return favourite.userId() + "/" + favourite.favouriteId();
        }
    }

    /** The detail of {@code FavouriteTagged} and {@code FavouriteUntagged}. */
    public record LinkDetail(String eventId, String userId, String favouriteId, String tagId, FavouriteType type,
                             Instant linkedAt) {
        static LinkDetail of(String eventId, FavouriteTag link) {
            return new LinkDetail(eventId, link.userId(), link.favouriteId(), link.tagId(), link.favourite().type(),
                    link.linkedAt());
        }

        static String subject(FavouriteTag link) {
            return link.userId() + "/" + link.favouriteId() + "/" + link.tagId();
        }
    }

    private FavEvents() {
    }
}
