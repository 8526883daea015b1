package io.tally.stream.testing;

import io.tally.core.EntityType;
import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.TableSchema;
import io.tally.core.blog.Blog;
import io.tally.core.blog.BlogKeys;
import io.tally.core.blog.Comment;
import io.tally.core.blog.Post;
import io.tally.core.blog.PostStatus;
import io.tally.core.domains.Domains;
import io.tally.stream.derive.Contribution;
import io.tally.stream.derive.CounterRef;
import io.tally.stream.derive.Derivation;
import io.tally.stream.derive.Derivations;
import io.tally.stream.derive.Document;
import io.tally.stream.engine.Watermarks;
import io.tally.stream.events.DomainEvent;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Small derivations for the engine's tests (the real ones are written elsewhere): posts and comments per user,
 * a post projection document with a comment counter. Plus the recomputation from base items that derived data
 * must equal.
 */
public final class TestDerivations {
    /** The projection document of the test: a subset of the real one. */
    public static final Set<String> PROJECTION_DOCUMENT = Set.of(
            Blog.Projection.POST_ID, Blog.Projection.USER_ID,
            Blog.Projection.TITLE, Blog.Projection.STATUS);

    private TestDerivations() {
    }

    /** Posts per user (not deleted), comments per author and per post, the post projection; with events. */
    public static Derivations blog() {
        return Derivations.of(new PostDerivation(true), new CommentDerivation(true));
    }

    /** Only the users' totals: posts per user and comments per author, one derived item per user. */
    public static Derivations userTotals() {
        return Derivations.of(new PostDerivation(false), new CommentDerivation(false));
    }

    public static Derivation posts() {
        return new PostDerivation(true);
    }

    public static Derivation comments() {
        return new CommentDerivation(true);
    }

    public static CounterRef userCounter(String userId, String attribute) {
        return new CounterRef(BlogKeys.userStats(userId), Domains.USER_STATS, attribute);
    }

    static final class PostDerivation implements Derivation {
        private final boolean projections;

        PostDerivation(boolean projections) {
            this.projections = projections;
        }

        @Override
        public EntityType entityType() {
            return Blog.POST;
        }

        @Override
        public Contribution contribution(Map<String, AttributeValue> image) {
            Post post = Post.fromItem(image);
            Contribution.Builder builder = Contribution.builder();
            if (post.status() != PostStatus.DELETED) {
                builder.count(userCounter(post.userId(), Blog.USER_POSTS), 1);
            }
            if (projections) {
                builder.document(BlogKeys.postProjection(post.postId()), new Document(Blog.POST_PROJECTION,
                        PROJECTION_DOCUMENT, Map.of(
                        Blog.Projection.POST_ID, Items.s(post.postId()),
                        Blog.Projection.USER_ID, Items.s(post.userId()),
                        Blog.Projection.TITLE, Items.s(post.title()),
                        Blog.Projection.STATUS, Items.s(post.status().value()))));
            }
            return builder.build();
        }

        @Override
        public List<DomainEvent> events(String eventId, Map<String, AttributeValue> oldImage,
                                        Map<String, AttributeValue> newImage) {
            if (!projections) {
                return List.of();
            }
            if (oldImage == null && newImage != null) {
                Post post = Post.fromItem(newImage);
                return List.of(new DomainEvent(DomainEvent.idFor(eventId, "PostCreated", post.postId()), "PostCreated",
                        Map.of("postId", post.postId(), "userId", post.userId())));
            }
            if (oldImage != null && newImage != null) {
                Post before = Post.fromItem(oldImage);
                Post after = Post.fromItem(newImage);
                if (before.status() != after.status()) {
                    return List.of(new DomainEvent(DomainEvent.idFor(eventId, "PostStatusChanged", after.postId()),
                            "PostStatusChanged", Map.of("postId", after.postId(), "status", after.status().value())));
                }
            }
            return List.of();
        }
    }

    static final class CommentDerivation implements Derivation {
        private final boolean projections;

        CommentDerivation(boolean projections) {
            this.projections = projections;
        }

        @Override
        public EntityType entityType() {
            return Blog.COMMENT;
        }

        @Override
        public Contribution contribution(Map<String, AttributeValue> image) {
            Comment comment = Comment.fromItem(image);
            Contribution.Builder builder = Contribution.builder()
                    .count(userCounter(comment.authorId(), Blog.USER_COMMENTS), 1);
            if (projections) {
                builder.count(new CounterRef(BlogKeys.postProjection(comment.postId()), Blog.POST_PROJECTION,
                        Blog.Projection.COMMENTS), 1);
            }
            return builder.build();
        }

        @Override
        public List<DomainEvent> events(String eventId, Map<String, AttributeValue> oldImage,
                                        Map<String, AttributeValue> newImage) {
            if (!projections) {
                return List.of();
            }
            if (oldImage == null && newImage != null) {
                Comment comment = Comment.fromItem(newImage);
                return List.of(new DomainEvent(DomainEvent.idFor(eventId, "CommentAdded", comment.commentId()),
                        "CommentAdded", Map.of("commentId", comment.commentId(), "postId", comment.postId())));
            }
            if (oldImage != null && newImage == null) {
                Comment comment = Comment.fromItem(oldImage);
                return List.of(new DomainEvent(DomainEvent.idFor(eventId, "CommentDeleted", comment.commentId()),
                        "CommentDeleted", Map.of("commentId", comment.commentId(), "postId", comment.postId())));
            }
            return List.of();
        }
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
            Contribution contribution;
            try {
                EntityType type = Items.entityType(item);
                var derivation = derivations.forType(type);
                if (derivation.isEmpty()) {
                    continue;
                }
                contribution = derivation.get().contribution(item);
            } catch (RuntimeException e) {
                continue;
            }
            contribution.counters().forEach((counter, amount) -> {
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
     * Derived items as readers see them, comparable with {@link #recompute}: watermarks dropped, zero counters
     * dropped (absent and zero read the same), items left with nothing but key and type dropped.
     */
    public static Map<Key, Map<String, AttributeValue>> comparable(Map<Key, Map<String, AttributeValue>> items) {
        Map<Key, Map<String, AttributeValue>> result = new HashMap<>();
        items.forEach((key, item) -> {
            Map<String, AttributeValue> copy = new HashMap<>(item);
            copy.keySet().removeIf(Watermarks::isWatermark);
            copy.values().removeIf(value -> value.n() != null && new BigDecimal(value.n()).signum() == 0);
            if (copy.size() > 3) {
                result.put(key, Map.copyOf(copy));
            }
        });
        return Map.copyOf(result);
    }

    private static Map<String, AttributeValue> base(Key key, EntityType type) {
        Map<String, AttributeValue> item = new HashMap<>(key.toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, AttributeValue.fromS(type.attributeValue()));
        return item;
    }
}
