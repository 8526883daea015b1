package io.tally.domains.catalogue;

import io.tally.core.events.EventType;
import java.time.Instant;

/**
 * The catalogue's event, which the authoritative user item announces ({@link Catalogue} declares it over
 * {@link UserItem#AUTHORITATIVE}: its list entry is a copy written in the same transaction, and would announce it twice).
 */
public final class CatalogueEvents {
    public static final EventType ITEM_COMPLETED = EventType.of("ItemCompleted", ItemCompleted.class);

    /** The detail of {@code ItemCompleted}; {@code completedAt} is when the item entered {@code completed}. */
    public record ItemCompleted(String eventId, String userId, String itemId, boolean correct, boolean live,
                                Instant completedAt) {
        /**
         * When the item enters {@code completed} (final, so that happens once); none for any other change. An absent
         * flag counts as false in the stats; the event says the same.
         */
        static ItemCompleted of(String eventId, UserItem before, UserItem after) {
            boolean wasCompleted = before != null && before.state() == ItemState.COMPLETED;
            return after == null || after.state() != ItemState.COMPLETED || wasCompleted ? null : new ItemCompleted(
                    eventId, after.userId(), after.itemId(), Boolean.TRUE.equals(after.correct()),
                    Boolean.TRUE.equals(after.live()), after.enteredAt());
        }
    }

    private CatalogueEvents() {
    }
}
