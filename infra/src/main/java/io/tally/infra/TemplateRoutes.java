package io.tally.infra;

import io.tally.core.http.Access;
import io.tally.core.http.Router;
import java.util.List;

/**
 * The template's read-side routes, generated from the route table: for each route whose rule is read-side, the
 * HttpApi's OpenAPI path that sends it to the writer without an authorizer when the read side is public
 * ({@code PublicReads}), and with the default JWT authorizer otherwise. Every other request takes the {@code $default}
 * route, which carries the authorizer. Each of them is throttled on its own ({@link #routeSettings}).
 */
final class TemplateRoutes {
    static final String BEGIN = "          # BEGIN read-side routes";
    static final String END = "          # END read-side routes";
    /** The HttpApi's {@code RouteSettings}: each read-side route's own throttle. */
    static final String SETTINGS_BEGIN = "        # BEGIN read-side route settings";
    static final String SETTINGS_END = "        # END read-side route settings";
    /** The Lambda proxy integration of the writer's alias, as one branch of the path's {@code Fn::If} starts. */
    private static final String INTEGRATION = String.join("\n",
            "                - x-amazon-apigateway-integration:",
            "                      type: aws_proxy",
            "                      httpMethod: POST",
            "                      payloadFormatVersion: \"2.0\"",
            "                      uri: !Sub \"arn:${AWS::Partition}:apigateway:${AWS::Region}:lambda:path/2015-03-31/"
                    + "functions/${WriterFunction.Alias}/invocations\"",
            "");

    private TemplateRoutes() {
    }

    /** The paths' YAML, as it stands between the markers (the markers' own comment lines excluded). */
    static String paths(List<Router.Rule> routes) {
        StringBuilder yaml = new StringBuilder();
        String lastPath = null;
        for (Router.Rule route : routes) {
            if (route.access().kind() != Access.Kind.READ_SIDE) {
                continue;
            }
            if (!route.template().equals(lastPath)) {
                yaml.append("          ").append(route.template()).append(":\n");
                lastPath = route.template();
            }
            yaml.append("            ").append(route.method().toLowerCase(java.util.Locale.ROOT)).append(":\n")
                    .append("              Fn::If:\n")
                    .append("                - PublicReads\n")
                    .append(INTEGRATION)
                    .append("                  security:\n")
                    .append("                    - NONE: []\n")
                    .append("                  responses: {}\n")
                    .append(INTEGRATION)
                    .append("                  responses: {}\n");
        }
        return yaml.toString();
    }

    /**
     * The route settings' YAML (between the markers, their comment lines excluded): each read-side route, by its route
     * key, throttled by the {@code ReadSideRateLimit} and {@code ReadSideBurstLimit} parameters.
     */
    static String routeSettings(List<Router.Rule> routes) {
        StringBuilder yaml = new StringBuilder();
        for (Router.Rule route : routes) {
            if (route.access().kind() != Access.Kind.READ_SIDE) {
                continue;
            }
            yaml.append("        \"").append(routeKey(route)).append("\":\n")
                    .append("          ThrottlingBurstLimit: !Ref ReadSideBurstLimit\n")
                    .append("          ThrottlingRateLimit: !Ref ReadSideRateLimit\n");
        }
        return yaml.toString();
    }

    /** API Gateway's route key of a route: {@code GET /stats/posts/{postId}}. */
    static String routeKey(Router.Rule route) {
        return route.method().toUpperCase(java.util.Locale.ROOT) + " " + route.template();
    }
}
