package io.tally.domains;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.MalformedItemException;
import io.tally.core.TableSchema;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.users.User;
import io.tally.core.users.Users;
import io.tally.domains.blog.Blog;
import io.tally.domains.blog.BlogKeys;
import io.tally.domains.blog.Comment;
import io.tally.domains.blog.Post;
import io.tally.domains.blog.PostRef;
import io.tally.domains.blog.PostStatus;
import io.tally.domains.catalogue.CatalogueItem;
import io.tally.domains.catalogue.ItemState;
import io.tally.domains.catalogue.UserItem;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class ItemMappingTest {
    private static final Instant T1 = Instant.parse("2019-01-22T10:28:49.930Z");
    private static final Instant T2 = Instant.parse("2019-01-22T11:15:00.000Z");

    @Test
    void user_roundTripsAndCarriesKeysAndType() {
        User user = new User("8790", "Ada", "ada@example.com", T1, T2, 3);
        Map<String, AttributeValue> item = user.toItem();
        assertThat(item.get("pk").s()).isEqualTo("USER#8790");
        assertThat(item.get("sk").s()).isEqualTo("#METADATA#8790");
        assertThat(item.get("entityType").s()).isEqualTo("User");
        assertThat(User.fromItem(item)).isEqualTo(user);
    }

    @Test
    void post_roundTripsAndFeedsTheTimeIndex() {
        Post post = new Post("p1", "u1", "Title", "Body", PostStatus.UPDATED, T1, T2, 2);
        Map<String, AttributeValue> item = post.toItem();
        assertThat(item.get("entityType").s()).isEqualTo("Post");
        assertThat(item.get(BlogKeys.POSTED_AT).s()).isEqualTo("2019-01-22T10:28:49.930Z#p1");
        assertThat(Post.fromItem(item)).isEqualTo(post);
    }

    @Test
    void postRef_locatesThePost() {
        PostRef ref = new PostRef("p1", "u1", T1);
        assertThat(PostRef.fromItem(ref.toItem())).isEqualTo(ref);
        assertThat(ref.postKey()).isEqualTo(BlogKeys.post("u1", "p1", T1));
    }

    @Test
    void comment_roundTrips() {
        Comment comment = new Comment("c1", "p1", "u1", T1, "u2", "Nice", T2);
        assertThat(Comment.fromItem(comment.toItem())).isEqualTo(comment);
        assertThat(comment.key().pk()).isEqualTo(BlogKeys.commentsPk("p1", T1));
    }

    @Test
    void catalogueItem_keepsSelectorOutOfTheIndexAttribute() {
        CatalogueItem item = new CatalogueItem("55", null, 70, "global-cycle:5", T1, 7);
        Map<String, AttributeValue> attributes = item.toItem();
        assertThat(attributes).doesNotContainKeys(TableSchema.SELECTOR, TableSchema.DATA, "title");
        assertThat(attributes.get("itemSelector").s()).isEqualTo("global-cycle:5");
        assertThat(attributes.get("revision").n()).isEqualTo("7");
        assertThat(CatalogueItem.fromItem(attributes)).isEqualTo(item);
    }

    @Test
    void catalogueItem_writtenBeforeRevisions_readsAsRevisionZero() {
        Map<String, AttributeValue> legacy = new HashMap<>(new CatalogueItem("55", "t", 70, "back-catalogue", T1, 9).toItem());
        legacy.remove("revision");

        assertThat(CatalogueItem.fromItem(legacy).revision()).isZero();
    }

    @Test
    void catalogueItem_nextRevision_isAboveThePreviousAndAtLeastTheClockInMicroseconds() {
        Instant now = Instant.parse("2026-01-01T00:00:00.123456789Z");
        long micros = now.getEpochSecond() * 1_000_000L + 123_456L;

        assertThat(CatalogueItem.nextRevision(0, now)).as("no previous revision: the clock").isEqualTo(micros);
        assertThat(CatalogueItem.nextRevision(micros - 10, now)).isEqualTo(micros);
        assertThat(CatalogueItem.nextRevision(micros, now)).as("the same microsecond: one more").isEqualTo(micros + 1);
        assertThat(CatalogueItem.nextRevision(micros + 500, now)).as("a clock behind the last writer's")
                .isEqualTo(micros + 501);
    }

    @Test
    void userItem_andItsEntryHoldTheSameValues() {
        UserItem userItem = new UserItem("8790", "3", ItemState.IN_PROGRESS, 99, 0.87, null, true, T1, T2);
        Map<String, AttributeValue> authoritative = userItem.toItem();
        Map<String, AttributeValue> entry = userItem.toEntryItem();
        assertThat(authoritative.get("sk").s()).isEqualTo("useritem#3");
        assertThat(authoritative.get("entityType").s()).isEqualTo("UserItem");
        assertThat(entry.get("sk").s()).isEqualTo("item:in-progress");
        assertThat(entry.get("entityType").s()).isEqualTo("UserItemEntry");
        assertThat(UserItem.fromItem(authoritative)).isEqualTo(userItem);
        assertThat(UserItem.fromItem(entry)).isEqualTo(userItem);
        assertThat(authoritative).doesNotContainKey("correct");
    }

    @Test
    void fromItem_ofAnotherEntityType_isMalformed() {
        Map<String, AttributeValue> item = new User("u", "n", "e@x.io", T1, T1, 1).toItem();
        assertThatThrownBy(() -> Post.fromItem(item))
                .isInstanceOf(MalformedItemException.class)
                .hasMessageContaining("expected entity type Post");
    }

    @Test
    void fromItem_withMissingOrMistypedAttribute_isMalformed() {
        Map<String, AttributeValue> item = new HashMap<>(new User("u", "n", "e@x.io", T1, T1, 1).toItem());
        item.remove("name");
        assertThatThrownBy(() -> User.fromItem(item)).isInstanceOf(MalformedItemException.class).hasMessageContaining("name");
        item.put("name", AttributeValue.fromS("n"));
        item.put("version", AttributeValue.fromS("one"));
        assertThatThrownBy(() -> User.fromItem(item)).isInstanceOf(MalformedItemException.class).hasMessageContaining("version");
    }

    @Test
    void entityType_unknownValue_isUnknownToTheRegistry() {
        assertThat(DomainRegistry.load().entityType("Album")).isEmpty();
        assertThat(DomainRegistry.load().entityType("Comment")).contains(Blog.COMMENT);
        assertThat(DomainRegistry.load().entityType("UserStats")).contains(Users.USER_STATS.entityType());
    }

    @Test
    void mapper_itemOfAnotherType_isMalformed() {
        Map<String, AttributeValue> item = new HashMap<>(Map.of("entityType", AttributeValue.fromS("Song")));
        assertThatThrownBy(() -> User.fromItem(item)).isInstanceOf(MalformedItemException.class)
                .hasMessageContaining("Song");
    }
}
