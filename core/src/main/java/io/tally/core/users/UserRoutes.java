package io.tally.core.users;

import io.tally.core.domain.RouteContext;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.Field;
import io.tally.core.http.Fields;
import io.tally.core.http.IfMatch;
import io.tally.core.http.Router;
import java.time.Instant;
import java.util.regex.Pattern;

/** {@code POST /users}, {@code GET /users/{userId}}, {@code PATCH /users/{userId}}. */
record UserRoutes(RouteContext context, UserStore users) {
    static final int NAME_MAX = 100;
    static final int EMAIL_MAX = 254;
    /** A pragmatic shape check; whether the address receives mail is not the writer's business. */
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+\\.[^@\\s]+");
    private static final Field<String> USER_ID = Field.id("userId");
    private static final Field<String> NAME = Field.string("name", 1, NAME_MAX);
    private static final Field<String> EMAIL_FIELD = Field.string("email", 3, EMAIL_MAX);
    /** The bodies of {@code POST /users} and {@code PATCH /users/{userId}}. */
    private static final Fields CREATE = Fields.of(USER_ID, NAME.required(), EMAIL_FIELD.required());
    private static final Fields UPDATE = Fields.of(NAME, EMAIL_FIELD);

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
        String userId = body.get(USER_ID);
        String name = body.get(NAME);
        String email = email(body.get(EMAIL_FIELD));
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
        String name = body.get(NAME);
        String email = email(body.get(EMAIL_FIELD));
        if (name == null && email == null) {
            throw ApiException.validation(null, "nothing to change: give name or email");
        }
        User user = users.update(userId, name, email, context.now(), ifMatch);
        return ApiResponse.ok(user).withETag(user.version());
    }

    private static String email(String email) {
        if (email != null && !EMAIL.matcher(email).matches()) {
            throw ApiException.validation("email", "'email' must be an e-mail address");
        }
        return email;
    }
}
