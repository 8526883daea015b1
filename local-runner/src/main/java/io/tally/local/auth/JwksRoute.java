package io.tally.local.auth;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import java.util.Map;

/**
 * {@code GET /.well-known/jwks.json} on the local front with {@code --auth}: the local key's public half, where a
 * client or another service can verify local tokens (as a Cognito user pool publishes its keys).
 */
public final class JwksRoute implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {
    public static final String PATH = "/.well-known/jwks.json";

    private final LocalAuth auth;

    public JwksRoute(LocalAuth auth) {
        this.auth = auth;
    }

    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        String method = event.getRequestContext() == null || event.getRequestContext().getHttp() == null ? "GET"
                : event.getRequestContext().getHttp().getMethod();
        if (!"GET".equalsIgnoreCase(method) && !"HEAD".equalsIgnoreCase(method)) {
            return APIGatewayV2HTTPResponse.builder().withStatusCode(405)
                    .withHeaders(Map.of("Content-Type", "application/json", "Allow", "GET"))
                    .withBody("{\"error\":{\"code\":\"method_not_allowed\",\"message\":\"only GET\"}}").build();
        }
        return APIGatewayV2HTTPResponse.builder().withStatusCode(200)
                .withHeaders(Map.of("Content-Type", "application/json", "Cache-Control", "no-cache"))
                .withBody(auth.jwksJson())
                .withIsBase64Encoded(false)
                .build();
    }
}
