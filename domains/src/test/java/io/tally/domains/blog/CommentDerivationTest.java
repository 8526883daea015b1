package io.tally.domains.blog;

import static io.tally.core.derive.DerivationCase.deltas;
import static io.tally.core.derive.DerivationCase.event;
import static io.tally.core.derive.DerivationCase.with;

import io.tally.core.ShardSettings;
import io.tally.core.derive.CounterRef;
import io.tally.core.derive.Derivation;
import io.tally.core.derive.DerivationCase;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.users.SharedStats;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class CommentDerivationTest {
    /** The comment's derivation as the registry joins it with the blog's views (its shared counts are views'). */
    private static final Derivation DERIVATION = DomainRegistry.load().derivations(ShardSettings.DEFAULTS)
            .forType(Blog.COMMENT).orElseThrow();

    private static final Instant POST_CREATED = Instant.parse("2019-01-22T10:28:49.930Z");
    private static final Instant CREATED = Instant.parse("2019-01-22T12:00:00.001Z");
    /** On post p1 of user u1, written by u2: the post's author and the comment's author differ. */
    private static final Comment COMMENT = new Comment("c1", "p1", "u1", POST_CREATED, "u2", "Nice post", CREATED);

    private static final CounterRef POST_COMMENTS =
            new CounterRef(BlogKeys.postProjection("p1"), Blog.POST_PROJECTION, Blog.Projection.COMMENTS);
    private static final CounterRef AUTHOR_COMMENTS =
            SharedStats.user("u2", Blog.USER_COMMENTS);
    private static final CounterRef GLOBAL_COMMENTS =
            SharedStats.global(Blog.GLOBAL_COMMENTS);

    static Stream<DerivationCase> cases() {
        return Stream.of(
                new DerivationCase("insert_newComment_countsOnPostAuthorAndGlobalAndAnnouncesCommentAdded",
                        null, COMMENT.toItem(),
                        deltas(POST_COMMENTS, 1, AUTHOR_COMMENTS, 1, GLOBAL_COMMENTS, 1),
                        Map.of(),
                        List.of(event(BlogEvents.COMMENT_ADDED.detailType(), "c1",
                                "commentId", "c1", "postId", "p1", "authorId", "u2",
                                "createdAt", "2019-01-22T12:00:00.001Z", "postUserId", "u1"))),
                new DerivationCase("remove_existingComment_uncountsEverywhereAndAnnouncesCommentDeleted",
                        COMMENT.toItem(), null,
                        deltas(POST_COMMENTS, -1, AUTHOR_COMMENTS, -1, GLOBAL_COMMENTS, -1),
                        Map.of(),
                        List.of(event(BlogEvents.COMMENT_DELETED.detailType(), "c1",
                                "commentId", "c1", "postId", "p1", "authorId", "u2", "postUserId", "u1"))),
                new DerivationCase("modify_textOnly_noDeltasNoEvents",
                        COMMENT.toItem(), with(COMMENT.toItem(), "text", AttributeValue.fromS("Edited")),
                        Map.of(), Map.of(), List.of()),
                new DerivationCase("rewrite_unchangedImage_noDeltasNoEvents",
                        COMMENT.toItem(), COMMENT.toItem(),
                        Map.of(), Map.of(), List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void change_tableCase_derivesExpectedDeltasDocumentsAndEvents(DerivationCase change) {
        change.assertDerivedBy(DERIVATION);
    }

    static Stream<Arguments> malformedImages() {
        Map<String, AttributeValue> comment = COMMENT.toItem();
        return Stream.of(
                Arguments.of(Named.of("missing authorId", with(comment, "authorId", null))),
                Arguments.of(Named.of("postId not a string", with(comment, "postId", AttributeValue.fromN("1")))),
                Arguments.of(Named.of("createdAt not a timestamp", with(comment, "createdAt", AttributeValue.fromS("now")))),
                Arguments.of(Named.of("a post image",
                        new Post("p1", "u1", "t", "b", PostStatus.CREATED, POST_CREATED, POST_CREATED, 1).toItem())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedImages")
    void derive_malformedImage_isAProblemAndContributesNothing(Map<String, AttributeValue> image) {
        DerivationCase.assertUnreadable(DERIVATION, image);
    }

}
