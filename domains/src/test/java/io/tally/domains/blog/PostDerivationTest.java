package io.tally.domains.blog;

import static io.tally.core.derive.DerivationCase.RECORD_ID;
import static io.tally.core.derive.DerivationCase.deltas;
import static io.tally.core.derive.DerivationCase.event;
import static io.tally.core.derive.DerivationCase.with;
import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.Shards;
import io.tally.core.SharedCounter;
import io.tally.core.TableSchema;
import io.tally.core.Timestamps;
import io.tally.core.derive.CounterRef;
import io.tally.core.derive.Derivation;
import io.tally.core.derive.DerivationCase;
import io.tally.core.derive.Document;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.events.DomainEvent;
import io.tally.core.users.SharedStats;
import io.tally.core.users.User;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class PostDerivationTest {
    private static final int STATUS_SHARDS = 7;
    /** The post's derivation as the registry joins it with the blog's views (its counts are views'). */
    private static final Derivation DERIVATION = DomainRegistry.load().derivations(ShardSettings.DEFAULTS
            .with(BlogKeys.STATUS_SHARDS, STATUS_SHARDS)).forType(Blog.POST)
            .orElseThrow();

    private static final Instant CREATED = Instant.parse("2019-01-22T10:28:49.930Z");
    private static final Instant UPDATED = Instant.parse("2019-01-23T08:00:00.000Z");
    private static final Instant DELETED = Instant.parse("2019-01-24T09:30:00.000Z");

    private static final Post CREATED_POST = new Post("p1", "u1", "Hello", "First body", PostStatus.CREATED, CREATED, CREATED, 1);
    private static final Post UPDATED_POST = new Post("p1", "u1", "Hello again", "Second body", PostStatus.UPDATED, CREATED, UPDATED, 2);
    private static final Post DELETED_POST = new Post("p1", "u1", "Hello again", "Second body", PostStatus.DELETED, CREATED, DELETED, 3);

    private static final Key PROJECTION = BlogKeys.postProjection("p1");
    private static final CounterRef USER_POSTS = SharedStats.user("u1", Blog.USER_POSTS);

    static Stream<DerivationCase> cases() {
        return Stream.of(
                new DerivationCase("insert_createdPost_countsProjectsAndAnnouncesPostCreated",
                        null, CREATED_POST.toItem(),
                        deltas(USER_POSTS, 1, global(Blog.GLOBAL_POSTS_CREATED), 1),
                        Map.of(PROJECTION, projection(CREATED_POST)),
                        List.of(event(BlogEvents.POST_CREATED.detailType(), "p1",
                                "postId", "p1", "userId", "u1", "title", "Hello", "status", "created",
                                "createdAt", "2019-01-22T10:28:49.930Z"))),
                new DerivationCase("update_createdToUpdated_movesGlobalCountAndAnnouncesStatusChange",
                        CREATED_POST.toItem(), UPDATED_POST.toItem(),
                        deltas(global(Blog.GLOBAL_POSTS_CREATED), -1, global(Blog.GLOBAL_POSTS_UPDATED), 1),
                        Map.of(PROJECTION, projection(UPDATED_POST)),
                        List.of(event(BlogEvents.POST_STATUS_CHANGED.detailType(), "p1",
                                "postId", "p1", "userId", "u1", "from", "created", "to", "updated",
                                "updatedAt", "2019-01-23T08:00:00.000Z", "title", "Hello again"))),
                new DerivationCase("update_sameStatusNewTitle_rewritesProjectionOnly",
                        UPDATED_POST.toItem(), withTitle(UPDATED_POST, "Third title").toItem(),
                        Map.of(),
                        Map.of(PROJECTION, projection(withTitle(UPDATED_POST, "Third title"))),
                        List.of()),
                new DerivationCase("softDelete_updatedToDeleted_uncountsUserPostAndAnnouncesStatusChange",
                        UPDATED_POST.toItem(), DELETED_POST.toItem(),
                        deltas(USER_POSTS, -1, global(Blog.GLOBAL_POSTS_UPDATED), -1, global(Blog.GLOBAL_POSTS_DELETED), 1),
                        Map.of(PROJECTION, projection(DELETED_POST)),
                        List.of(event(BlogEvents.POST_STATUS_CHANGED.detailType(), "p1",
                                "postId", "p1", "userId", "u1", "from", "updated", "to", "deleted",
                                "updatedAt", "2019-01-24T09:30:00.000Z", "title", "Hello again"))),
                new DerivationCase("remove_deletedPost_uncountsGlobalAndRemovesProjectionSilently",
                        DELETED_POST.toItem(), null,
                        deltas(global(Blog.GLOBAL_POSTS_DELETED), -1),
                        // Version 3 removed: one above the projection of version 3 (6).
                        Map.of(PROJECTION, Document.removed(Blog.POST_PROJECTION, 7)),
                        List.of()),
                new DerivationCase("remove_livePost_uncountsEverywhereAndRemovesProjection",
                        CREATED_POST.toItem(), null,
                        deltas(USER_POSTS, -1, global(Blog.GLOBAL_POSTS_CREATED), -1),
                        Map.of(PROJECTION, Document.removed(Blog.POST_PROJECTION, 3)),
                        List.of()),
                new DerivationCase("insert_alreadyDeletedPost_countsOnlyAsDeleted",
                        null, DELETED_POST.toItem(),
                        deltas(global(Blog.GLOBAL_POSTS_DELETED), 1),
                        Map.of(PROJECTION, projection(DELETED_POST)),
                        List.of(event(BlogEvents.POST_CREATED.detailType(), "p1",
                                "postId", "p1", "userId", "u1", "title", "Hello again", "status", "deleted",
                                "createdAt", "2019-01-22T10:28:49.930Z"))),
                new DerivationCase("rewrite_unchangedImage_noDeltasNoEvents",
                        UPDATED_POST.toItem(), UPDATED_POST.toItem(),
                        Map.of(),
                        Map.of(PROJECTION, projection(UPDATED_POST)),
                        List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void change_tableCase_derivesExpectedDeltasDocumentsAndEvents(DerivationCase change) {
        change.assertDerivedBy(DERIVATION);
    }

    static Stream<Arguments> malformedImages() {
        Map<String, AttributeValue> post = CREATED_POST.toItem();
        return Stream.of(
                Arguments.of(Named.of("missing userId", with(post, "userId", null))),
                Arguments.of(Named.of("unknown status", with(post, "status", AttributeValue.fromS("archived")))),
                Arguments.of(Named.of("status not a string", with(post, "status", AttributeValue.fromN("1")))),
                Arguments.of(Named.of("createdAt not a timestamp", with(post, "createdAt", AttributeValue.fromS("yesterday")))),
                Arguments.of(Named.of("no entity type", with(post, TableSchema.ENTITY_TYPE, null))),
                Arguments.of(Named.of("a user image", new User("u1", "Ada", "ada@example.com", CREATED, CREATED, 1).toItem())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedImages")
    void derive_malformedImage_isAProblemAndContributesNothing(Map<String, AttributeValue> image) {
        DerivationCase.assertUnreadable(DERIVATION, image);
    }

    @Test
    void projection_anyPost_holdsEveryDocumentAttributeAsStrings() {
        Document document = DERIVATION.derive(RECORD_ID, null, UPDATED_POST.toItem()).documents().get(PROJECTION);

        assertThat(document.values().keySet()).containsExactlyInAnyOrderElementsOf(Blog.POST_PROJECTION.document());
        assertThat(document.values().values()).allSatisfy(value -> assertThat(value.s()).isNotNull());
        assertThat(document.values().get(BlogKeys.STATUS_SHARD).s())
                .isEqualTo("POSTS#updated#" + Shards.of("p1", STATUS_SHARDS));
        assertThat(document.values().get(BlogKeys.STATUS_POSTED_AT).s()).isEqualTo("2019-01-22T10:28:49.930Z#p1");
    }

    @Test
    void revision_projectionOfVersionV_is2V_andItsRemoval2VPlus1_soLaterVersionsBeatBoth() {
        long created = DERIVATION.derive(RECORD_ID, null, CREATED_POST.toItem()).documents().get(PROJECTION).revision();
        long updated = DERIVATION.derive(RECORD_ID, CREATED_POST.toItem(), UPDATED_POST.toItem()).documents()
                .get(PROJECTION).revision();
        long removedUpdated = DERIVATION.derive(RECORD_ID, UPDATED_POST.toItem(), null).documents().get(PROJECTION)
                .revision();
        long deleted = DERIVATION.derive(RECORD_ID, UPDATED_POST.toItem(), DELETED_POST.toItem()).documents()
                .get(PROJECTION).revision();

        assertThat(List.of(created, updated, removedUpdated, deleted)).containsExactly(2L, 4L, 5L, 6L);
    }

    @Test
    void shards_statusChange_keepsTheShardOfThePostId() {
        for (int i = 0; i < 200; i++) {
            Post post = new Post("post-" + i, "u1", "t", "b", PostStatus.CREATED, CREATED, CREATED, 1);
            Post deleted = new Post("post-" + i, "u1", "t", "b", PostStatus.DELETED, CREATED, DELETED, 2);
            int shard = Shards.of("post-" + i, STATUS_SHARDS);

            assertThat(statusShard(post)).isEqualTo(BlogKeys.statusShard(PostStatus.CREATED, shard));
            assertThat(statusShard(deleted)).isEqualTo(BlogKeys.statusShard(PostStatus.DELETED, shard));
            assertThat(DERIVATION.derive(RECORD_ID, null, deleted.toItem()).counterDeltas())
                    .containsKey(SharedStats.global(Blog.GLOBAL_POSTS_DELETED));
        }
    }

    @Test
    void eventIds_sameRecordTwice_areEqualAndDeriveFromTheRecord() {
        List<DomainEvent> first = DERIVATION.derive("record-7", null, CREATED_POST.toItem()).events();
        List<DomainEvent> again = DERIVATION.derive("record-7", null, CREATED_POST.toItem()).events();

        assertThat(first).isEqualTo(again);
        assertThat(first.get(0).id()).isEqualTo("record-7:PostCreated:p1");
        assertThat(first.get(0).detail().get("eventId")).isEqualTo(first.get(0).id());
    }

    private static String statusShard(Post post) {
        return DERIVATION.derive(RECORD_ID, null, post.toItem()).documents().get(BlogKeys.postProjection(post.postId()))
                .values().get(BlogKeys.STATUS_SHARD).s();
    }

    private static Post withTitle(Post post, String title) {
        return new Post(post.postId(), post.userId(), title, post.body(), post.status(), post.createdAt(),
                post.updatedAt(), post.version() + 1);
    }

    private static CounterRef global(SharedCounter counter) {
        return SharedStats.global(counter);
    }

    /** The projection document written out by hand, attribute by attribute, at twice the post's version. */
    private static Document projection(Post post) {
        return new Document(Blog.POST_PROJECTION, Map.of(
                Blog.Projection.POST_ID, AttributeValue.fromS(post.postId()),
                Blog.Projection.USER_ID, AttributeValue.fromS(post.userId()),
                Blog.Projection.TITLE, AttributeValue.fromS(post.title()),
                Blog.Projection.STATUS, AttributeValue.fromS(post.status().value()),
                Blog.Projection.CREATED_AT, AttributeValue.fromS(Timestamps.format(post.createdAt())),
                Blog.Projection.UPDATED_AT, AttributeValue.fromS(Timestamps.format(post.updatedAt())),
                BlogKeys.STATUS_SHARD, AttributeValue.fromS(
                        BlogKeys.statusShard(post.status(), Shards.of(post.postId(), STATUS_SHARDS))),
                BlogKeys.STATUS_POSTED_AT, AttributeValue.fromS(BlogKeys.postedAt(post.postId(), post.createdAt()))),
                2 * post.version());
    }
}
