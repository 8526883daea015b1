package io.tally.core.users;

import io.tally.core.view.SharedCounts;

/** The users kernel's count in the global totals, declared as a view (a class of its own: it reads the users' schema). */
final class UserFigures {
    static final SharedCounts<User> USERS = SharedCounts.over(User.SCHEMA).global(Users.GLOBAL_USERS).build();

    private UserFigures() {
    }
}
