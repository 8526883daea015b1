package io.tally.domains.catalogue;

import io.tally.core.Items;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A user's authoritative item as read, with the {@code version} that the writer keeps next to it. The version
 * is what the next write's condition compares, so a concurrent change between the read and the write is
 * detected even within one millisecond (where {@code updatedAt} would not differ).
 *
 * @param version null for an item written without one (by a loader, say); the next write then expects none
 */
record VersionedUserItem(UserItem item, Long version) {
    static final String VERSION = "version";

    static VersionedUserItem fromItem(Map<String, AttributeValue> item) {
        return new VersionedUserItem(UserItem.fromItem(item), item.containsKey(VERSION) ? Items.number(item, VERSION) : null);
    }

    long nextVersion() {
        return version == null ? 1 : version + 1;
    }
}
