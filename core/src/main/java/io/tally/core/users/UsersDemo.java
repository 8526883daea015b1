package io.tally.core.users;

import static io.tally.core.demo.DemoApi.body;

import io.tally.core.demo.DemoApi;
import java.io.IOException;

/** The kernel's part of the seed scenario: the seed's user-8790 and two more users the other domains' data names. */
final class UsersDemo {
    /** The seed's user. */
    static final String SEED_USER = "user-8790";

    private UsersDemo() {
    }

    static void seed(DemoApi api) throws IOException, InterruptedException {
        api.write("POST", "/users", body("userId", SEED_USER, "name", "Eric", "email", "eric@example.com"));
        api.write("POST", "/users", body("userId", "user-1001", "name", "Ro", "email", "ro@example.com"));
        api.write("POST", "/users", body("userId", "user-1002", "name", "Sam", "email", "sam@example.com"));
    }
}
