package io.tally.domains.favs;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.Items;
import io.tally.core.Timestamps;
import io.tally.core.http.Json;
import io.tally.core.read.StatsJson;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The contract's JSON shapes of seed 004, fields in the documented order. */
final class FavsJson {
    private FavsJson() {
    }

    static ObjectNode tag(Tag tag) {
        ObjectNode json = Json.object();
        json.put("tagId", tag.tagId());
        json.put("name", tag.name());
        json.put("createdAt", Timestamps.format(tag.createdAt()));
        json.put("lastAccessAt", Timestamps.format(tag.lastAccessAt()));
        return json;
    }

    static ObjectNode favourite(Favourite favourite) {
        ObjectNode json = Json.object();
        json.put("favouriteId", favourite.favouriteId());
        json.put("userId", favourite.userId());
        json.put("type", favourite.type().value());
        json.put("title", favourite.title());
        json.put("contentUrl", favourite.contentUrl());
        json.put("thumbnailUrl", favourite.thumbnailUrl());
        json.put("creatorId", favourite.creatorId());
        json.put("clippedAt", Timestamps.format(favourite.clippedAt()));
        return json;
    }

    /** A favourite from any item that carries its fields: the favourite, a link, a search entry. */
    static ObjectNode listed(Map<String, AttributeValue> item) {
        return favourite(Favourite.fields(item, ""));
    }

    static ObjectNode link(FavouriteTag link) {
        ObjectNode json = Json.object();
        json.put("favouriteId", link.favouriteId());
        json.put("tagId", link.tagId());
        json.put("linkedAt", Timestamps.format(link.linkedAt()));
        return json;
    }

    /**
     * {@code {"userId", "favourites", "byType": {...}, "byTag": {...}}}: types in the enumeration's order, tags by id,
     * zeros left out; {@code item} is the FavouriteStats item or null.
     */
    static ObjectNode stats(String userId, Map<String, AttributeValue> item) {
        StatsJson.check(item, Favs.FAVOURITE_STATS.entityType());
        ObjectNode json = Json.object();
        json.put("userId", userId);
        json.put("favourites", StatsJson.counter(item, Favs.STATS_FAVOURITES));
        ObjectNode byType = json.putObject("byType");
        for (FavouriteType type : FavouriteType.values()) {
            long count = StatsJson.counter(item, Favs.typeCounter(type));
            if (count != 0) {
                byType.put(type.value(), count);
            }
        }
        ObjectNode byTag = json.putObject("byTag");
        Map<String, Long> tags = new TreeMap<>();
        if (item != null) {
            item.forEach((name, value) -> {
                if (name.startsWith(Favs.STATS_TAG_PREFIX)) {
                    long count = Items.number(item, name);
                    if (count != 0) {
                        tags.put(name.substring(Favs.STATS_TAG_PREFIX.length()), count);
                    }
                }
            });
        }
        tags.forEach(byTag::put);
        return json;
    }
}
