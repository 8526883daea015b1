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
    USER_ITEM_ENTRY("UserItemEntry");

    private static final Map<String, EntityType> BY_NAME =
            Arrays.stream(values()).collect(Collectors.toUnmodifiableMap(EntityType::attributeValue, Function.identity()));

    private final String attributeValue;

    EntityType(String attributeValue) {
        this.attributeValue = attributeValue;
    }

    /** The value stored in the item's entity type attribute. */
    public String attributeValue() {
        return attributeValue;
    }

    public static Optional<EntityType> fromAttributeValue(String value) {
        return Optional.ofNullable(value == null ? null : BY_NAME.get(value));
    }
}
