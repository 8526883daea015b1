package io.tally.core.users;

import static io.tally.core.Items.s;

import io.tally.core.derive.Contribution;
import io.tally.core.derive.EntityDerivation;
import java.util.Map;

/**
 * A user owns the {@code userId} of its stats item, so that the stats item exists as soon as the user does and the
 * read side can tell "a user with nothing derived yet" (zeros) from "no such user" (404); its count in the global
 * totals is a view ({@link UserFigures}). A user announces no events.
 */
public final class UserDerivation extends EntityDerivation<User> {

    public UserDerivation() {
        super(Users.USER, User::fromItem);
    }

    /** The user's version: 1 when created, one more with every update; users are never removed by the API. */
    @Override
    protected long revision(User user) {
        return user.version();
    }

    @Override
    protected Contribution contribution(User user) {
        return Contribution.builder()
                .document(Users.USER_STATS, user.userId(), Map.of(Users.USER_STATS_USER_ID, s(user.userId())))
                .build();
    }
}
