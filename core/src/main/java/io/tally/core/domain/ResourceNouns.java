package io.tally.core.domain;

import io.tally.core.ItemSchema;
import io.tally.core.http.Router;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * What an {@link EntityResource}'s messages call things, from its path's nouns: {@code /users/{userId}/reviews/{itemId}}
 * names a user and the review they have, {@code /orgs/{orgId}} an org (unless the resource is
 * {@linkplain EntityResource#named named} otherwise).
 */
final class ResourceNouns {
    private ResourceNouns() {
    }

    /**
     * The entity's noun: the plural before its id as one ({@code /users/{userId}/reviews/{itemId}} review); where the
     * id is the path's only one, from its parameter ({@code /items/{catalogueItemId}} catalogue item); the entity
     * type's name in words when no noun comes before the id.
     */
    static String entity(String path, ItemSchema<?> schema) {
        List<String> segments = segments(path);
        List<String> parameters = Router.parameters(path);
        String last = parameters.get(parameters.size() - 1);
        int at = segments.indexOf("{" + last + "}");
        if (at < 1 || segments.get(at - 1).startsWith("{")) {
            return words(schema.entityType().attributeValue());
        }
        return parameters.size() == 1 ? noun(last, segments.get(at - 1)) : singular(segments.get(at - 1));
    }

    /**
     * The 404's message by default: {@code /users/{userId}/reviews/{itemId}} gives "user 'u1' has no review 'i1'" (the
     * owner named by its parameter, the entity by {@code entity}), {@code /items/{itemId}} "item 'i1' does not
     * exist"; another path, "<entity type in lower case> '<ids joined with />' does not exist".
     */
    static Function<Map<String, String>, String> missing(String path, ItemSchema<?> schema, String entity) {
        List<String> segments = segments(path);
        List<String> parameters = Router.parameters(path);
        boolean nounThenId = segments.size() == 2 * parameters.size() && IntStream.range(0, segments.size())
                .allMatch(i -> segments.get(i).startsWith("{") == (i % 2 == 1));
        if (nounThenId && parameters.size() == 1) {
            return ids -> entity + " '" + ids.get(parameters.get(0)) + "' does not exist";
        }
        if (nounThenId && parameters.size() == 2) {
            String owner = noun(parameters.get(0), segments.get(0));
            return ids -> owner + " '" + ids.get(parameters.get(0)) + "' has no " + entity + " '"
                    + ids.get(parameters.get(1)) + "'";
        }
        return ids -> schema.entityType().attributeValue().toLowerCase(Locale.ROOT) + " '"
                + String.join("/", ids.values()) + "' does not exist";
    }

    private static List<String> segments(String path) {
        return Arrays.stream(path.split("/")).filter(segment -> !segment.isEmpty()).toList();
    }

    /**
     * What an id names, from its parameter ({@code shelfId} shelf, {@code catalogueItemId} catalogue item), else from
     * the path's plural noun before it.
     */
    static String noun(String parameter, String plural) {
        return parameter.length() > 2 && parameter.endsWith("Id") ? words(parameter.substring(0,
                parameter.length() - 2)) : singular(plural);
    }

    /** A name in camel case as lower-case words: {@code CatalogueItem} "catalogue item". */
    static String words(String camel) {
        return camel.replaceAll("(?<=[a-z0-9])(?=[A-Z])", " ").toLowerCase(Locale.ROOT);
    }

    /** A path's plural noun as one, the regular way: {@code users} user, {@code categories} category. */
    static String singular(String noun) {
        if (noun.endsWith("ies")) {
            return noun.substring(0, noun.length() - 3) + "y";
        }
        return noun.endsWith("s") && !noun.endsWith("ss") ? noun.substring(0, noun.length() - 1) : noun;
    }
}
