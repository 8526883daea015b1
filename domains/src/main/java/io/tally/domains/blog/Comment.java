package io.tally.domains.blog;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A comment, stored in its post's comment partition. {@code postUserId} and {@code postCreatedAt} locate the
 * post; comment ids are always generated (time-ordered), so the sort key orders comments oldest first. The record is
 * both the item ({@link #SCHEMA}) and the contract's JSON, which leaves out where the post is.
 */
@JsonPropertyOrder({"commentId", "postId", "authorId", "text", "createdAt"})
public record Comment(String commentId, String postId, @JsonIgnore String postUserId, @JsonIgnore Instant postCreatedAt,
                      String authorId, String text, Instant createdAt) {
    public static final ItemSchema<Comment> SCHEMA = ItemSchema.of(Comment.class, Blog.COMMENT, Comment::key).build();

    public Key key() {
        return BlogKeys.comment(postId, postCreatedAt, commentId, createdAt);
    }

    public Map<String, AttributeValue> toItem() {
        return SCHEMA.toItem(this);
    }

    public static Comment fromItem(Map<String, AttributeValue> item) {
        return SCHEMA.fromItem(item);
    }
}
