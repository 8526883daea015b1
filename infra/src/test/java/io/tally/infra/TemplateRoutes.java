package io.tally.infra;

import io.tally.core.http.Access;
import io.tally.core.http.Router;
import java.util.List;

/**
 * The template's read-side routes, generated from the route table: for each route whose rule is read-side, the
 * HttpApi's OpenAPI path that sends it to the writer without an authorizer when the read side is public
 * ({@code PublicReads}), and with the default JWT authorizer otherwise. Every other request takes the {@code $default}
 * route, which carries the authorizer.
 */
final class TemplateRoutes {
    static final String BEGIN = "          # BEGIN read-side routes";
    static final String END = "          # END read-side routes";
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
}
