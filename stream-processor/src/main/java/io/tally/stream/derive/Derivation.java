package io.tally.stream.derive;

import io.tally.core.EntityType;
import io.tally.core.MalformedItemException;
import io.tally.stream.events.DomainEvent;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The pure rules of one base entity type: no I/O, no clock, no randomness, so that the stream processor and
 * the rebuild from a scan compute the same derived data from the same items.
 */
public interface Derivation {
    EntityType entityType();

    /**
     * What an item in this state contributes to derived data.
     *
     * @param image the item, never null
     * @throws MalformedItemException when the item lacks what its type requires
     */
    Contribution contribution(Map<String, AttributeValue> image);

    /**
     * The domain events a change announces, beside the {@code UserStatsChanged} events the engine derives from
     * the counter deltas. Event ids derive from {@code eventId}, so a redelivered record announces the same ids.
     *
     * @param oldImage the item before the change, or null
     * @param newImage the item after the change, or null
     */
    List<DomainEvent> events(String eventId, Map<String, AttributeValue> oldImage, Map<String, AttributeValue> newImage);
}
