package io.tally.core.derive;

import io.tally.core.EntityType;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The pure rules of one base entity type, in one call: from a change of an item to the derived data it changes
 * and the events it announces. No I/O, no clock, no randomness, so that the stream processor and the rebuild from a
 * scan compute the same derived data from the same items. Most derivations extend {@link EntityDerivation}.
 */
public interface Derivation {
    EntityType entityType();

    /**
     * The intended changes of one change of an item of {@link #entityType()}. Never throws for anything the images
     * hold: what cannot be derived is reported in {@link IntendedChanges#problems()}.
     *
     * @param eventId  the stream record's id; event ids derive from it, so a redelivered record announces the
     *                 same ids
     * @param oldImage the item before the change, or null (an insert, or a rebuild from the current item)
     * @param newImage the item after the change, or null (a removal)
     */
    IntendedChanges derive(String eventId, Map<String, AttributeValue> oldImage, Map<String, AttributeValue> newImage);

    /**
     * How an item in this state stands to cascades (see {@link CascadeLinks}); {@link CascadeLinks#NONE} for an
     * entity whose removal removes nothing and that nothing removes, or an image that cannot be read. Never throws.
     */
    default CascadeLinks cascadeLinks(Map<String, AttributeValue> image) {
        return CascadeLinks.NONE;
    }
}
