package io.tally.core.derive;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.domains.blog.Blog;
import io.tally.domains.blog.Post;
import io.tally.domains.blog.PostStatus;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** How {@link EntityDerivation} sets the revision of documents from the source's revision. */
class EntityDerivationTest {
    private static final Instant T1 = Instant.parse("2024-05-01T12:00:00Z");
    private static final Post LIVE = new Post("p1", "u1", "t", "b", PostStatus.CREATED, T1, T1, 4);
    private static final Post DELETED = new Post("p1", "u1", "t", "b", PostStatus.DELETED, T1, T1, 5);
    private static final Key PROJECTION = Blog.POST_PROJECTION.key("p1");

    /** Owns the projection while the post is not deleted; says its revision when {@code revisioned}. */
    private static final class Projections extends EntityDerivation<Post> {
        private final boolean revisioned;

        Projections(boolean revisioned) {
            super(Blog.POST);
            this.revisioned = revisioned;
        }

        @Override
        protected Post read(Map<String, AttributeValue> image) {
            return Post.fromItem(image);
        }

        @Override
        protected Contribution contribution(Post post) {
            Contribution.Builder builder = Contribution.builder().count(Blog.POST_PROJECTION, "p1", Blog.Projection.COMMENTS, 1);
            if (post.status() != PostStatus.DELETED) {
                builder.document(Blog.POST_PROJECTION, post.postId(), Map.of(Blog.Projection.TITLE, Items.s(post.title())));
            }
            return builder.build();
        }

        @Override
        protected long revision(Post post) {
            return revisioned ? post.version() : super.revision(post);
        }
    }

    @Test
    void documentOfAState_carriesTwiceItsRevision() {
        IntendedChanges changes = new Projections(true).derive("r", null, LIVE.toItem());

        assertThat(changes.documents().get(PROJECTION).revision()).isEqualTo(8);
    }

    @Test
    void documentTheNewStateNoLongerOwns_isRemovedOneAboveTheOldState() {
        IntendedChanges changes = new Projections(true).derive("r", LIVE.toItem(), DELETED.toItem());

        assertThat(changes.documents().get(PROJECTION)).isEqualTo(Document.removed(Blog.POST_PROJECTION, 9));
    }

    @Test
    void sourceRemoved_documentRemovedOneAboveTheLastState() {
        IntendedChanges changes = new Projections(true).derive("r", LIVE.toItem(), null);

        assertThat(changes.documents().get(PROJECTION)).isEqualTo(Document.removed(Blog.POST_PROJECTION, 9));
    }

    @Test
    void documentsWithoutARevisionHook_areAProblem_andThatSideContributesNothing() {
        IntendedChanges changes = new Projections(false).derive("r", null, LIVE.toItem());

        assertThat(changes.isClean()).isFalse();
        assertThat(changes.problems()).singleElement().asString().contains("does not say the revision");
        assertThat(changes.documents()).isEmpty();
        assertThat(changes.counterDeltas()).isEmpty();
    }

    @Test
    void stateWithoutDocuments_needsNoRevision() {
        IntendedChanges changes = new Projections(false).derive("r", null, DELETED.toItem());

        assertThat(changes.isClean()).isTrue();
        assertThat(changes.counterDeltas()).hasSize(1);
    }

    @Test
    void negativeRevision_isAProblem() {
        Post negative = new Post("p1", "u1", "t", "b", PostStatus.CREATED, T1, T1, -1);

        assertThat(new Projections(true).derive("r", null, negative.toItem()).isClean()).isFalse();
    }
}
