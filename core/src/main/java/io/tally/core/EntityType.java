package io.tally.core;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The kind of a base item, stored in {@link TableSchema#ENTITY_TYPE} on every item so that a stream
 * consumer can route a record without parsing its keys.
 */
public enum EntityType {
    USER("User"),
    POST("Post"),
    /** Global uniqueness guard and locator of a post id: post ids are unique across users. */
    POST_REF("PostRef"),
    COMMENT("Comment"),
    CATALOGUE_ITEM("CatalogueItem"),
    /** The authoritative state of one catalogue item for one user. */
    USER_ITEM("UserItem"),
    /** A user's list entry (assigned, in progress, completed, orphaned) kept in step with {@link #USER_ITEM}. */
    USER_ITEM_ENTRY("UserItemEntry"),

    // Derived items, written only by the stream processor.
    /** One per user: the user's totals (seed 003's {@code stats} item). */
    USER_STATS("UserStats", true),
    /** One per post: a small copy in the status index, with the post's comment count. */
    POST_PROJECTION("PostProjection", true),
    /** One per catalogue item: its entry in the CycleSelector index. */
    SELECTOR_ENTRY("SelectorEntry", true),
    /** One of K shards of the application-wide totals; readers sum the shards. */
    GLOBAL_STATS("GlobalStats", true),
    /** A stream record the stream processor could not process, with the reason. */
    DEAD_LETTER("DeadLetter", true);

    private static final Map<String, EntityType> BY_NAME =
            Arrays.stream(values()).collect(Collectors.toUnmodifiableMap(EntityType::attributeValue, Function.identity()));

    private final String attributeValue;
    private final boolean derived;

    EntityType(String attributeValue) {
        this(attributeValue, false);
    }

    EntityType(String attributeValue, boolean derived) {
        this.attributeValue = attributeValue;
        this.derived = derived;
    }

    /** Whether items of this type are derived data (written by the stream processor, never by a writer). */
    public boolean isDerived() {
        return derived;
    }

    /** The value stored in the item's entity type attribute. */
    public String attributeValue() {
        return attributeValue;
    }

    public static Optional<EntityType> fromAttributeValue(String value) {
        return Optional.ofNullable(value == null ? null : BY_NAME.get(value));
    }
}
