package io.tally.core.http;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Route templates and request paths, segment by segment: how the {@link Router} binds and ranks them. */
final class RoutePaths {
    private RoutePaths() {
    }

    /** The path parameters of a route template, in order: {@code /users/{userId}/reviews/{itemId}} has two. */
    static List<String> parameters(String template) {
        List<String> names = new ArrayList<>();
        for (String part : split(template)) {
            if (isParameter(part) && part.length() > 2) {
                names.add(part.substring(1, part.length() - 1));
            }
        }
        return names;
    }

    /**
     * A route as the router tells routes apart: its method and its path with the parameters unnamed
     * ({@code GET /users/{}}); two routes of one shape would be one route, the first answering both.
     */
    static String shape(String method, String template) {
        StringBuilder path = new StringBuilder();
        for (String part : split(template)) {
            path.append('/').append(isParameter(part) ? "{}" : part);
        }
        return method + " " + (path.length() == 0 ? "/" : path);
    }

    /**
     * Whether a route of {@code template} is a closer match than one of {@code than} for a path both bind: at the first
     * segment where one has a literal and the other a parameter, the literal wins (as API Gateway chooses the most
     * specific route), so {@code /favourites/search} answers its path whatever the order the routes were added in.
     */
    static boolean moreSpecific(String[] template, String[] than) {
        for (int i = 0; i < template.length; i++) {
            if (isParameter(template[i]) != isParameter(than[i])) {
                return !isParameter(template[i]);
            }
        }
        return false;
    }

    static boolean isParameter(String part) {
        return part.startsWith("{") && part.endsWith("}");
    }

    static Map<String, String> bind(String[] template, String[] path) {
        if (template.length != path.length) {
            return null;
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        for (int i = 0; i < template.length; i++) {
            String part = template[i];
            if (isParameter(part)) {
                String value = decode(path[i]);
                if (value == null || value.isEmpty()) {
                    return null;
                }
                parameters.put(part.substring(1, part.length() - 1), value);
            } else if (!part.equals(path[i])) {
                return null;
            }
        }
        return parameters;
    }

    /** A segment strictly decoded ('+' is a literal plus in a path), or null if it does not decode. */
    private static String decode(String segment) {
        try {
            return Text.percentDecode(segment);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    static String[] split(String path) {
        String trimmed = path;
        while (trimmed.startsWith("/")) {
            trimmed = trimmed.substring(1);
        }
        while (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return trimmed.isEmpty() ? new String[0] : trimmed.split("/", -1);
    }
}
