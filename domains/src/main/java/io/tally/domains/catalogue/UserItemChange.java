package io.tally.domains.catalogue;

import java.time.Instant;

/**
 * What one {@code PUT /users/{userId}/items/{itemId}} asks for, applied to what is stored.
 *
 * <p>{@code progress}, {@code correct} and {@code live} replace the stored values when given and keep them when
 * absent (JSON null counts as absent): a client reporting progress need not repeat the rest, and moving an
 * in-progress item to completed keeps its last progress. A field once set therefore cannot be cleared.
 *
 * <p>{@code enteredAt} moves only when the state changes, because it orders the completed and orphaned lists
 * and must say when the item got there, not when it was last touched. {@code score} is always the catalogue
 * item's current score, so re-putting an assigned item re-sorts it after a catalogue change.
 */
record UserItemChange(ItemState state, Double progress, Boolean correct, Boolean live) {

    /** The user item after this change; {@code current} is null when the user does not have the item yet. */
    UserItem applyTo(String userId, CatalogueItem catalogueItem, UserItem current, Instant now) {
        boolean entered = current == null || current.state() != state;
        return new UserItem(
                userId,
                catalogueItem.itemId(),
                state,
                catalogueItem.score(),
                progress != null || current == null ? progress : current.progress(),
                correct != null || current == null ? correct : current.correct(),
                live != null || current == null ? live : current.live(),
                entered ? now : current.enteredAt(),
                now);
    }
}
