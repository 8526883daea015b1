package io.tally.domains.blog;

import com.fasterxml.jackson.annotation.JsonValue;
import io.tally.core.ItemSchema;
import java.util.Optional;

/** Lifecycle of a post; {@link #DELETED} is a soft delete: the post stays readable. Stored and written as its value. */
public enum PostStatus implements ItemSchema.Coded {
    CREATED("created"),
    UPDATED("updated"),
    DELETED("deleted");

    private final String value;

    PostStatus(String value) {
        this.value = value;
    }

    @Override
    @JsonValue
    public String value() {
        return value;
    }

    public static Optional<PostStatus> parse(String value) {
        return ItemSchema.Coded.parse(values(), value);
    }
}
