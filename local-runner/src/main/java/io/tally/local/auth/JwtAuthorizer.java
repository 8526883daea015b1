package io.tally.local.auth;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The local stand-in for an HTTP API's JWT authorizer, between the front and the writer function: it verifies the
 * request's token with {@link LocalAuth} (the checks API Gateway makes, {@link LocalAuth#verify(String,
 * java.time.Instant)}) and, when valid, puts the claims into the event's
 * {@code requestContext.authorizer.jwt.claims} exactly as API Gateway does, then invokes the function. The function
 * runs the same code as on AWS: it never sees the token, only verified claims.
 *
 * <p>Unlike API Gateway on a route with an authorizer, it does not answer 401 itself: a request without a valid token
 * reaches the function without claims, and the function's own access rules answer it (401 {@code unauthorized}
 * in the contract's error body where a token is needed; the public read side where it is not). Any claims a client
 * put into the event by other means are removed first.
 */
public final class JwtAuthorizer implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {
    private final LocalAuth auth;
    private final RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> function;

    public JwtAuthorizer(LocalAuth auth, RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> function) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.function = Objects.requireNonNull(function, "function");
    }

    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        authorize(event, auth);
        return function.handleRequest(event, context);
    }

    /** Sets (or clears) the event's authorizer block from its {@code authorization} header. */
    static void authorize(APIGatewayV2HTTPEvent event, LocalAuth auth) {
        APIGatewayV2HTTPEvent.RequestContext context = event.getRequestContext();
        if (context == null) {
            context = new APIGatewayV2HTTPEvent.RequestContext();
            event.setRequestContext(context);
        }
        Optional<Map<String, String>> claims = auth.verify(header(event.getHeaders(), "authorization"));
        context.setAuthorizer(claims.map(verified -> APIGatewayV2HTTPEvent.RequestContext.Authorizer.builder()
                        .withJwt(APIGatewayV2HTTPEvent.RequestContext.Authorizer.JWT.builder()
                                .withClaims(verified)
                                .build())
                        .build())
                .orElse(null));
    }

    private static String header(Map<String, String> headers, String name) {
        if (headers == null) {
            return null;
        }
        for (Map.Entry<String, String> header : headers.entrySet()) {
            if (header.getKey().equalsIgnoreCase(name)) {
                return header.getValue();
            }
        }
        return null;
    }
}
