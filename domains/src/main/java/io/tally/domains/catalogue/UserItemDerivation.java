package io.tally.domains.catalogue;

import io.tally.core.Items;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.EntityDerivation;
import io.tally.core.events.DomainEvent;
import io.tally.core.events.EventType;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The authoritative user item ({@code useritem#<itemId>}) announces {@code ItemCompleted}; it counts in its user's
 * stats under its current state (a completed one also its correct guess and live completion, and in the global
 * totals) through a view, {@link CatalogueFigures#USER_ITEMS}, which derives for the same entity type only.
 *
 * <p>Only {@link Catalogue#USER_ITEM} derives: its list entry ({@link Catalogue#USER_ITEM_ENTRY}) is a copy
 * written in the same transaction, so deriving both would count every item twice. {@link UserItem#fromItem}
 * reads either, hence the explicit type check.
 */
public final class UserItemDerivation extends EntityDerivation<UserItem> {
    public static final EventType ITEM_COMPLETED = EventType.of("ItemCompleted", ItemCompleted.class);

    /** The detail of {@code ItemCompleted}; {@code completedAt} is when the item entered {@code completed}. */
    public record ItemCompleted(String eventId, String userId, String itemId, boolean correct, boolean live,
                                Instant completedAt) {
    }

    public UserItemDerivation() {
        super(Catalogue.USER_ITEM);
    }

    @Override
    protected UserItem read(Map<String, AttributeValue> image) {
        Items.expectType(image, Catalogue.USER_ITEM);
        return UserItem.fromItem(image);
    }

    /** Its figures are views' ({@link CatalogueFigures#USER_ITEMS}). */
    @Override
    protected Contribution contribution(UserItem item) {
        return Contribution.NONE;
    }

    /** {@code ItemCompleted} when the item enters {@code completed}; completed is final, so that happens once. */
    @Override
    protected List<DomainEvent> events(String eventId, UserItem before, UserItem after) {
        boolean wasCompleted = before != null && before.state() == ItemState.COMPLETED;
        if (after == null || after.state() != ItemState.COMPLETED || wasCompleted) {
            return List.of();
        }
        // An absent flag counts as false in the stats; the event says the same.
        return List.of(DomainEvent.about(eventId, ITEM_COMPLETED, after.itemId(), id -> new ItemCompleted(id,
                after.userId(), after.itemId(), Boolean.TRUE.equals(after.correct()), Boolean.TRUE.equals(after.live()),
                after.enteredAt())));
    }
}
