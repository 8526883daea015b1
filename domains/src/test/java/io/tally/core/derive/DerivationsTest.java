package io.tally.core.derive;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Key;
import io.tally.core.PartialKeys;
import io.tally.core.ShardSettings;
import io.tally.core.ShardToken;
import io.tally.core.Shards;
import io.tally.core.TableSchema;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.events.DomainEvent;
import io.tally.core.users.SharedStats;
import io.tally.core.users.UserStatsEvents;
import io.tally.core.users.Users;
import io.tally.domains.blog.Blog;
import io.tally.domains.blog.BlogKeys;
import io.tally.domains.blog.Comment;
import io.tally.domains.blog.BlogEvents;
import io.tally.domains.blog.Post;
import io.tally.domains.blog.PostRef;
import io.tally.domains.blog.PostStatus;
import io.tally.domains.catalogue.Catalogue;
import io.tally.domains.catalogue.CatalogueItem;
import io.tally.domains.catalogue.CatalogueKeys;
import io.tally.domains.favs.Favs;
import io.tally.domains.orgs.Orgs;
import io.tally.domains.songs.Songs;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DerivationsTest {
    private static final Instant T1 = Instant.parse("2019-01-22T10:28:49.930Z");
    private static final Instant T2 = Instant.parse("2019-01-23T08:00:00.000Z");

    @Test
    void standard_defaults_deriveTheTwelveBaseTypesOnly() {
        Derivations derivations = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);

        assertThat(derivations.types())
                .containsExactlyInAnyOrder(Users.USER, Blog.POST, Blog.COMMENT,
                        Catalogue.CATALOGUE_ITEM, Catalogue.USER_ITEM,
                        Orgs.ORGANISATION, Orgs.TEAM, Orgs.EMPLOYEE, Orgs.MEMBERSHIP,
                        Songs.SONG, Songs.DOWNLOAD,
                        Favs.TAG, Favs.FAVOURITE, Favs.FAVOURITE_TAG);
    }

    @Test
    void standard_settings_shardCountsReachEachDerivation() {
        ShardSettings settings = ShardSettings.DEFAULTS.with(CatalogueKeys.SELECTOR_SHARDS, 7)
                .with(BlogKeys.STATUS_SHARDS, 5).with(ShardSettings.GLOBAL, 11);
        Derivations derivations = DomainRegistry.load().derivations(settings);
        Post post = new Post("p1", "u1", "t", "b", PostStatus.CREATED, T1, T1, 1);
        CatalogueItem item = new CatalogueItem("item-9", null, 3, "back-catalogue", T1, 1);

        IntendedChanges postChanges = derivations.derive(Blog.POST, "r1", null, post.toItem());
        IntendedChanges itemChanges = derivations.derive(Catalogue.CATALOGUE_ITEM, "r2", null, item.toItem());

        CounterRef created = SharedStats.global(Blog.GLOBAL_POSTS_CREATED);
        assertThat(postChanges.counterDeltas()).containsKey(created);
        assertThat(PartialKeys.baseOf(derivations.place(created, "shardId-0007")))
                .isEqualTo(Users.globalStatsKey(Shards.of("shardId-0007", 11)));
        assertThat(postChanges.documents().get(BlogKeys.postProjection("p1")).values().get(BlogKeys.STATUS_SHARD).s())
                .isEqualTo(BlogKeys.statusShard(PostStatus.CREATED, Shards.of("p1", 5)));
        assertThat(itemChanges.documents().get(CatalogueKeys.selectorEntry("item-9")).values().get(TableSchema.SELECTOR).s())
                .isEqualTo("back-catalogue:" + Shards.of("item-9", 7));
    }

    @Test
    void place_slottedCounter_goesToTheShardsPartialInTheSlotOfTheStreamShard_everySlotInUse() {
        Derivations derivations = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);
        CounterRef users = new CounterRef(Users.globalStatsKey(0), Users.GLOBAL_STATS, Users.GLOBAL_USERS.attribute());
        Set<Key> slots = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            String shard = "shardId-00000001-" + i;
            Key placed = derivations.place(users, shard);
            assertThat(placed).isEqualTo(derivations.place(users, shard)).isEqualTo(Users.GLOBAL_STATS.partial(
                    Users.globalStatsKey(Shards.of(shard, 4)), ShardToken.of(shard)));
            slots.add(PartialKeys.baseOf(placed));
        }
        assertThat(slots).containsExactlyInAnyOrder(Users.globalStatsKey(0), Users.globalStatsKey(1),
                Users.globalStatsKey(2), Users.globalStatsKey(3));
    }

    @Test
    void place_counterOfASharedType_goesToTheStreamShardsOwnPartialBesideTheItem() {
        Derivations derivations = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);
        CounterRef posts = SharedStats.user("u1", Blog.USER_POSTS);

        Key placed = derivations.place(posts, "shardId-1");

        assertThat(placed).isEqualTo(new Key("USER#u1", "#STATS#~p~" + ShardToken.of("shardId-1")));
        assertThat(PartialKeys.baseOf(placed)).isEqualTo(posts.key());
        assertThat(PartialKeys.partialToken(placed)).isEqualTo(ShardToken.of("shardId-1"));
        assertThat(derivations.place(posts, "shardId-2")).isNotEqualTo(placed);
    }

    @Test
    void place_counterOfAnUnsharedType_staysOnItsItem() {
        Derivations derivations = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);
        CounterRef comments = new CounterRef(BlogKeys.postProjection("p1"), Blog.POST_PROJECTION,
                Blog.Projection.COMMENTS);

        assertThat(derivations.place(comments, "shardId-1")).isEqualTo(comments.key());
    }

    @Test
    void derive_commentAdded_appendsUserStatsChangedAfterTheDerivationsEvents() {
        Comment comment = new Comment("c1", "p1", "u1", T1, "u2", "Nice", T2);

        IntendedChanges changes = DomainRegistry.load().derivations(ShardSettings.DEFAULTS)
                .derive(Blog.COMMENT, "r1", null, comment.toItem());

        assertThat(changes.events()).extracting(DomainEvent::detailType)
                .containsExactly(BlogEvents.COMMENT_ADDED.detailType(), UserStatsEvents.USER_STATS_CHANGED);
        DomainEvent statsChanged = changes.events().get(1);
        assertThat(statsChanged.id()).isEqualTo("r1:UserStatsChanged:u2");
        assertThat(statsChanged.detail()).containsEntry("userId", "u2")
                .containsEntry("changes", Map.of(Blog.USER_COMMENTS.attribute(), 1L));
    }

    @Test
    void derive_postSoftDeleted_announcesStatusChangeAndTheAuthorsLostPost() {
        Post before = new Post("p1", "u1", "t", "b", PostStatus.UPDATED, T1, T1, 2);
        Post after = new Post("p1", "u1", "t", "b", PostStatus.DELETED, T1, T2, 3);

        IntendedChanges changes = DomainRegistry.load().derivations(ShardSettings.DEFAULTS)
                .derive(Blog.POST, "r1", before.toItem(), after.toItem());

        assertThat(changes.events()).extracting(DomainEvent::detailType)
                .containsExactly(BlogEvents.POST_STATUS_CHANGED.detailType(), UserStatsEvents.USER_STATS_CHANGED);
        assertThat(changes.events().get(1).detail()).containsEntry("changes", Map.of(Blog.USER_POSTS.attribute(), -1L));
    }

    @Test
    void derive_titleEditOnly_noUserStatsChanged() {
        Post before = new Post("p1", "u1", "t", "b", PostStatus.UPDATED, T1, T1, 2);
        Post after = new Post("p1", "u1", "t2", "b", PostStatus.UPDATED, T1, T2, 3);

        IntendedChanges changes = DomainRegistry.load().derivations(ShardSettings.DEFAULTS)
                .derive(Blog.POST, "r1", before.toItem(), after.toItem());

        assertThat(changes.counterDeltas()).isEmpty();
        assertThat(changes.events()).isEmpty();
    }

    @Test
    void derive_typeWithoutDerivation_derivesNothing() {
        PostRef ref = new PostRef("p1", "u1", T1);

        IntendedChanges changes = DomainRegistry.load().derivations(ShardSettings.DEFAULTS)
                .derive(Blog.POST_REF, "r1", null, ref.toItem());

        assertThat(changes.counterDeltas()).isEmpty();
        assertThat(changes.documents()).isEmpty();
        assertThat(changes.events()).isEmpty();
    }
}
