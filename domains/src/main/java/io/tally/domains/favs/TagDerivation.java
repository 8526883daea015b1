package io.tally.domains.favs;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.tally.core.derive.Cascade;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.EntityDerivation;
import io.tally.core.events.DomainEvent;
import io.tally.core.events.EventType;
import java.time.Instant;
import java.util.List;

/**
 * A tag counts nothing itself (its favourites are its links, counted by {@link FavouriteTagDerivation}); its removal
 * removes its links in turn ({@link TagLinks}), whose own REMOVE records then count {@code tag:<tagId>} down. Announces
 * {@code TagCreated}, {@code TagRenamed} and {@code TagDeleted}; an access (a new {@code lastAccessAt}) announces
 * nothing.
 */
public final class TagDerivation extends EntityDerivation<Tag> {
    public static final EventType TAG_CREATED = EventType.of("TagCreated", TagDetail.class);
    public static final EventType TAG_RENAMED = EventType.of("TagRenamed", TagDetail.class);
    public static final EventType TAG_DELETED = EventType.of("TagDeleted", TagDetail.class);

    /** The detail of {@code TagCreated}, {@code TagRenamed} and {@code TagDeleted}; only a rename has a previous name. */
    @JsonPropertyOrder({"eventId", "userId", "tagId", "name", "previousName", "createdAt"})
    public record TagDetail(String eventId, String userId, String tagId, String name,
                            @JsonInclude(JsonInclude.Include.NON_NULL) String previousName, Instant createdAt) {
    }

    public TagDerivation() {
        super(Favs.TAG, Tag::fromItem);
    }

    @Override
    protected Contribution contribution(Tag tag) {
        return Contribution.NONE;
    }

    @Override
    protected List<Cascade> cascades(Tag before, Tag after) {
        if (before != null && (after == null || !after.incarnation().equals(before.incarnation()))) {
            return List.of(new TagLinks(before.userId(), before.tagId(), before.incarnation()));
        }
        return List.of();
    }

    @Override
    protected List<DomainEvent> events(String eventId, Tag before, Tag after) {
        if (before == null && after != null) {
            return List.of(event(eventId, TAG_CREATED, after, null));
        }
        if (before != null && after == null) {
            return List.of(event(eventId, TAG_DELETED, before, null));
        }
        if (before != null && !before.name().equals(after.name())) {
            return List.of(event(eventId, TAG_RENAMED, after, before.name()));
        }
        return List.of();
    }

    private static DomainEvent event(String eventId, EventType detailType, Tag tag, String previousName) {
        return DomainEvent.about(eventId, detailType, tag.userId() + "/" + tag.tagId(),
                id -> new TagDetail(id, tag.userId(), tag.tagId(), tag.name(), previousName, tag.createdAt()));
    }
}
