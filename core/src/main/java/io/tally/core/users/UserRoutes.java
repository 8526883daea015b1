package io.tally.core.users;

import io.tally.core.domain.RouteContext;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.IfMatch;
import io.tally.core.http.Router;
import java.time.Instant;
import java.util.Set;
import java.util.regex.Pattern;

/** {@code POST /users}, {@code GET /users/{userId}}, {@code PATCH /users/{userId}}. */
record UserRoutes(RouteContext context, UserStore users) {
    static final int NAME_MAX = 100;
    static final int EMAIL_MAX = 254;
    /** A pragmatic shape check; whether the address receives mail is not the writer's business. */
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+\\.[^@\\s]+");
    /** The fields of the bodies of {@code POST /users} and {@code PATCH /users/{userId}}. */
    private static final Set<String> CREATE = Set.of("userId", "name", "email");
    private static final Set<String> UPDATE = Set.of("name", "email");

    void register(Router router) {
        router.add("POST", "/users", Access.newUser("userId"), this::create).summary("Create a user")
                    .body(CREATE).returns(201, User.class)
                .add("GET", "/users/{userId}", Access.ownerOrAdmin("userId"), this::get).summary("A user")
                    .returns(200, User.class)
                .add("PATCH", "/users/{userId}", Access.owner("userId"), this::update)
                    .summary("Change a user's name or e-mail (If-Match: its version)").body(UPDATE)
                    .returns(200, User.class);
    }

    ApiResponse create(ApiRequest request) {
        Body body = Body.parse(request.body(), CREATE);
        String userId = body.optionalId("userId");
        String name = body.requiredString("name", 1, NAME_MAX);
        String email = email(body, true);
        Instant now = context.now();
        User user = new User(userId == null ? defaultId(request) : userId, name, email, now, now, 1);
        users.create(user);
        return ApiResponse.created(user, "/users/" + user.userId()).withETag(user.version());
    }

    /**
     * A signed-in caller's new user is the token's subject (access control is on); otherwise a new time-ordered id.
     */
    private String defaultId(ApiRequest request) {
        String subject = request.caller().subject();
        if (subject == null) {
            return context.ids().next();
        }
        if (!io.tally.core.Ids.isValid(subject)) {
            throw ApiException.validation("userId", "the token's subject cannot be a user id (it must match "
                    + io.tally.core.Ids.PATTERN.pattern() + ")");
        }
        return subject;
    }

    ApiResponse get(ApiRequest request) {
        String userId = request.id("userId");
        User user = users.get(userId);
        return ApiResponse.ok(user).withETag(user.version());
    }

    ApiResponse update(ApiRequest request) {
        String userId = request.id("userId");
        IfMatch ifMatch = request.ifMatch();
        Body body = Body.parse(request.body(), UPDATE);
        String name = body.optionalString("name", 1, NAME_MAX);
        String email = email(body, false);
        if (name == null && email == null) {
            throw ApiException.validation(null, "nothing to change: give name or email");
        }
        User user = users.update(userId, name, email, context.now(), ifMatch);
        return ApiResponse.ok(user).withETag(user.version());
    }

    private static String email(Body body, boolean required) {
        String email = required ? body.requiredString("email", 3, EMAIL_MAX) : body.optionalString("email", 3, EMAIL_MAX);
        if (email != null && !EMAIL.matcher(email).matches()) {
            throw ApiException.validation("email", "'email' must be an e-mail address");
        }
        return email;
    }
}
