package io.tally.stream.derive;

import static io.tally.core.Items.s;

import io.tally.core.EntityType;
import io.tally.core.blog.Blog;
import io.tally.core.blog.BlogKeys;
import io.tally.core.blog.User;
import io.tally.core.domains.Domains;
import io.tally.stream.events.DomainEvent;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A user counts once in the global totals and owns the {@code userId} of its stats item, so that the stats item
 * exists as soon as the user does and the read side can tell "a user with nothing derived yet" (zeros) from "no
 * such user" (404). A user announces no events.
 */
public final class UserDerivation implements Derivation {
    private static final Set<String> DOCUMENT = Set.of(Domains.USER_STATS_USER_ID);

    private final int globalShards;

    public UserDerivation(int globalShards) {
        this.globalShards = DerivedCounters.requireShards(globalShards, "globalShards");
    }

    @Override
    public EntityType entityType() {
        return Blog.USER;
    }

    @Override
    public Contribution contribution(Map<String, AttributeValue> image) {
        User user = User.fromItem(image);
        return Contribution.builder()
                .count(DerivedCounters.globalStats(user.userId(), globalShards, Blog.GLOBAL_USERS), 1)
                .document(BlogKeys.userStats(user.userId()),
                        new Document(Domains.USER_STATS, DOCUMENT, Map.of(Domains.USER_STATS_USER_ID, s(user.userId()))))
                .build();
    }

    @Override
    public List<DomainEvent> events(String eventId, Map<String, AttributeValue> oldImage,
                                    Map<String, AttributeValue> newImage) {
        return List.of();
    }
}
