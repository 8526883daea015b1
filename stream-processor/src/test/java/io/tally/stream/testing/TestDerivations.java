package io.tally.stream.testing;

import io.tally.core.DerivedType;
import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.PartialKeys;
import io.tally.core.ShardToken;
import io.tally.core.TableSchema;
import io.tally.domains.blog.Blog;
import io.tally.domains.blog.BlogKeys;
import io.tally.domains.blog.Comment;
import io.tally.domains.blog.Post;
import io.tally.domains.blog.PostStatus;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.CounterRef;
import io.tally.core.derive.Derivation;
import io.tally.core.domain.Derivations;
import io.tally.core.derive.Document;
import io.tally.core.derive.EntityDerivation;
import io.tally.core.derive.IntendedChanges;
import io.tally.stream.engine.Watermarks;
import io.tally.core.events.DomainEvent;
import io.tally.core.SharedCounter;
import io.tally.core.users.SharedStats;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Small derivations for the engine's tests (the real ones are written elsewhere): posts and comments per user,
 * a post projection document with a comment counter; through the application's registry, so that a change of a
 * user's counters announces the kernel's {@code UserStatsChanged} as in production. Plus the recomputation from base items that derived data
 * must equal.
 */
public final class TestDerivations {
    private TestDerivations() {
    }

    /** Posts per user (not deleted), comments per author and per post, the post projection; with events. */
    public static Derivations blog() {
        return Derivations.of(DomainRegistry.load(), new PostDerivation(true), new CommentDerivation(true));
    }

    /** Only the users' totals: posts per user and comments per author, one derived item per user. */
    public static Derivations userTotals() {
        return Derivations.of(DomainRegistry.load(), new PostDerivation(false), new CommentDerivation(false));
    }

    public static Derivation posts() {
        return new PostDerivation(true);
    }

    public static Derivation comments() {
        return new CommentDerivation(true);
    }

    public static CounterRef userCounter(String userId, SharedCounter counter) {
        return SharedStats.user(userId, counter);
    }

    static final class PostDerivation extends EntityDerivation<Post> {
        private final boolean projections;

        PostDerivation(boolean projections) {
            super(Blog.POST);
            this.projections = projections;
        }

        @Override
        protected Post read(Map<String, AttributeValue> image) {
            return Post.fromItem(image);
        }

        @Override
        protected Contribution contribution(Post post) {
            Contribution.Builder builder = Contribution.builder();
            if (post.status() != PostStatus.DELETED) {
                builder.count(userCounter(post.userId(), Blog.USER_POSTS), 1);
            }
            if (projections) {
                builder.document(BlogKeys.postProjection(post.postId()), new Document(Blog.POST_PROJECTION, Map.of(
                        Blog.Projection.POST_ID, Items.s(post.postId()),
                        Blog.Projection.USER_ID, Items.s(post.userId()),
                        Blog.Projection.TITLE, Items.s(post.title()),
                        Blog.Projection.STATUS, Items.s(post.status().value())), 0));
            }
            return builder.build();
        }

        @Override
        protected long revision(Post post) {
            return post.version();
        }

        @Override
        protected List<DomainEvent> events(String eventId, Post before, Post after) {
            if (!projections) {
                return List.of();
            }
            if (before == null && after != null) {
                return List.of(new DomainEvent(DomainEvent.idFor(eventId, "PostCreated", after.postId()), "PostCreated",
                        Map.of("postId", after.postId(), "userId", after.userId())));
            }
            if (before != null && after != null && before.status() != after.status()) {
                return List.of(new DomainEvent(DomainEvent.idFor(eventId, "PostStatusChanged", after.postId()),
                        "PostStatusChanged", Map.of("postId", after.postId(), "status", after.status().value())));
            }
            return List.of();
        }
    }

    static final class CommentDerivation extends EntityDerivation<Comment> {
        private final boolean projections;

        CommentDerivation(boolean projections) {
            super(Blog.COMMENT);
            this.projections = projections;
        }

        @Override
        protected Comment read(Map<String, AttributeValue> image) {
            return Comment.fromItem(image);
        }

        @Override
        protected Contribution contribution(Comment comment) {
            Contribution.Builder builder = Contribution.builder()
                    .count(userCounter(comment.authorId(), Blog.USER_COMMENTS), 1);
            if (projections) {
                builder.count(new CounterRef(BlogKeys.postProjection(comment.postId()), Blog.POST_PROJECTION,
                        Blog.Projection.COMMENTS), 1);
            }
            return builder.build();
        }

        @Override
        protected List<DomainEvent> events(String eventId, Comment before, Comment after) {
            if (!projections) {
                return List.of();
            }
            if (before == null && after != null) {
                return List.of(new DomainEvent(DomainEvent.idFor(eventId, "CommentAdded", after.commentId()),
                        "CommentAdded", Map.of("commentId", after.commentId(), "postId", after.postId())));
            }
            if (before != null && after == null) {
                return List.of(new DomainEvent(DomainEvent.idFor(eventId, "CommentDeleted", before.commentId()),
                        "CommentDeleted", Map.of("commentId", before.commentId(), "postId", before.postId())));
            }
            return List.of();
        }
    }

    /** The partial of a shard of a shared item ({@link DerivedType#partial}), whatever its type. */
    public static Key partial(Key base, String shardId) {
        return new Key(base.pk(), base.sk() + PartialKeys.MARK + ShardToken.of(shardId));
    }

    /**
     * Derived data recomputed from scratch over base items, as a rebuild from a scan would: items of unknown
     * types, without a derivation, or that a derivation refuses contribute nothing.
     */
    public static Map<Key, Map<String, AttributeValue>> recompute(Derivations derivations,
                                                                  Collection<Map<String, AttributeValue>> baseItems) {
        Map<Key, Map<String, BigDecimal>> counters = new HashMap<>();
        Map<Key, Map<String, AttributeValue>> derived = new HashMap<>();
        for (Map<String, AttributeValue> item : baseItems) {
            var type = DomainRegistry.load().entityType(Items.entityTypeName(item));
            if (type.isEmpty()) {
                continue;
            }
            IntendedChanges contribution = derivations.derive(type.get(), "recompute", null, item);
            if (!contribution.isClean()) {
                continue;
            }
            contribution.counterDeltas().forEach((counter, amount) -> {
                counters.computeIfAbsent(counter.key(), k -> new HashMap<>())
                        .merge(counter.attribute(), BigDecimal.valueOf(amount), BigDecimal::add);
                derived.computeIfAbsent(counter.key(), k -> base(k, counter.type()));
            });
            contribution.documents().forEach((key, document) ->
                    derived.computeIfAbsent(key, k -> base(k, document.type())).putAll(document.values()));
        }
        counters.forEach((key, values) -> values.forEach((attribute, sum) -> {
            if (sum.signum() != 0) {
                derived.get(key).put(attribute, AttributeValue.fromN(sum.toPlainString()));
            }
        }));
        derived.replaceAll((key, item) -> Map.copyOf(item));
        return Map.copyOf(derived);
    }

    /**
     * Derived items as readers see them, comparable with {@link #recompute}: the per-shard partials of a shared item
     * summed into its base item, watermarks, the document revision and the write version dropped, zero counters
     * dropped (absent and zero read the same), items left with nothing but key and type dropped.
     */
    public static Map<Key, Map<String, AttributeValue>> comparable(Map<Key, Map<String, AttributeValue>> items) {
        Map<Key, Map<String, AttributeValue>> wholes = new HashMap<>();
        Map<Key, Map<String, BigDecimal>> sums = new HashMap<>();
        items.forEach((key, item) -> {
            Key base = PartialKeys.baseOf(key);
            Map<String, AttributeValue> whole = wholes.computeIfAbsent(base, k -> new HashMap<>(k.toAttributeMap()));
            item.forEach((name, value) -> {
                if (name.equals(TableSchema.PK) || name.equals(TableSchema.SK) || Watermarks.isWatermark(name)
                        || name.equals(TableSchema.SOURCE_REVISION) || name.equals(TableSchema.WRITE_VERSION)) {
                    return;
                }
                if (value.n() != null) {
                    sums.computeIfAbsent(base, k -> new HashMap<>()).merge(name, new BigDecimal(value.n()),
                            BigDecimal::add);
                } else if (key.equals(base) || !whole.containsKey(name)) {
                    whole.put(name, value);
                }
            });
        });
        sums.forEach((base, counters) -> counters.forEach((name, sum) -> {
            if (sum.signum() != 0) {
                wholes.get(base).put(name, AttributeValue.fromN(sum.toPlainString()));
            }
        }));
        Map<Key, Map<String, AttributeValue>> result = new HashMap<>();
        wholes.forEach((key, whole) -> {
            if (whole.size() > 3) {
                result.put(key, Map.copyOf(whole));
            }
        });
        return Map.copyOf(result);
    }

    private static Map<String, AttributeValue> base(Key key, DerivedType type) {
        Map<String, AttributeValue> item = new HashMap<>(key.toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, AttributeValue.fromS(type.name()));
        return item;
    }
}
