package io.tally.domains.favs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tally.writer.TestApi;
import io.tally.writer.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Seed 004's contract over the real handler and DynamoDB Local: every route, its shapes, its errors. */
class FavRoutesIT {
    private static final Instant START = Instant.parse("2021-10-10T05:45:28Z");

    private final TestClock clock = TestClock.stepping(START, Duration.ofSeconds(1));
    private final TestApi api = TestApi.onFreshTable(clock);

    @BeforeEach
    void jessica() {
        assertThat(api.call("POST", "/users", "{\"userId\":\"jessica\",\"name\":\"Jessica\",\"email\":\"j@test.com\"}")
                .status()).isEqualTo(201);
    }

    private TestApi.Response collect(String id, String type, String title) {
        return api.call("POST", "/users/jessica/favourites",
                "{\"favouriteId\":\"" + id + "\",\"type\":\"" + type + "\",\"title\":\"" + title + "\"}");
    }

    private static List<String> ids(TestApi.Response response, String field) {
        List<String> ids = new ArrayList<>();
        response.body().get("items").forEach(item -> ids.add(item.get(field).asText()));
        return ids;
    }

    @Test
    void tags_createRenameDeleteAndThreeSorts_namesUniqueIgnoringCase() {
        var travel = api.call("POST", "/users/jessica/tags", "{\"tagId\":\"t1\",\"name\":\"Travel\"}");
        assertThat(travel.status()).isEqualTo(201);
        assertThat(travel.body().fieldNames()).toIterable().containsExactly("tagId", "name", "createdAt", "lastAccessAt");
        assertThat(travel.text("lastAccessAt")).isEqualTo(travel.text("createdAt"));
        var generated = api.call("POST", "/users/jessica/tags", "{\"name\":\"food\"}");
        assertThat(generated.text("tagId")).hasSize(26);
        api.call("POST", "/users/jessica/tags", "{\"tagId\":\"t3\",\"name\":\"Books\"}");

        assertThat(api.call("POST", "/users/jessica/tags", "{\"name\":\"TRAVEL\"}").errorCode()).isEqualTo("conflict");
        assertThat(api.call("POST", "/users/jessica/tags", "{\"tagId\":\"t1\",\"name\":\"other\"}").status())
                .isEqualTo(409);
        assertThat(api.call("POST", "/users/nobody/tags", "{\"name\":\"x\"}").status()).isEqualTo(404);

        assertThat(ids(api.call("GET", "/users/jessica/tags?sort=name"), "name")).containsExactly("Books", "food", "Travel");
        assertThat(ids(api.call("GET", "/users/jessica/tags"), "tagId"))
                .containsExactly("t3", generated.text("tagId"), "t1");
        var page = api.call("GET", "/users/jessica/tags?sort=name&limit=2");
        assertThat(ids(page, "name")).containsExactly("Books", "food");
        assertThat(ids(api.call("GET", "/users/jessica/tags?sort=name&cursor=" + page.text("cursor")), "name"))
                .containsExactly("Travel");
        assertThat(api.call("GET", "/users/jessica/tags?sort=created&cursor=" + page.text("cursor")).errorField())
                .isEqualTo("cursor");

        // A rename moves the reservation: the old name is free, the new one taken; a change of case keeps it.
        assertThat(api.call("PATCH", "/users/jessica/tags/t3", "{\"name\":\"Food\"}").status()).isEqualTo(409);
        var renamed = api.call("PATCH", "/users/jessica/tags/t1", "{\"name\":\"Trips\"}");
        assertThat(renamed.status()).isEqualTo(200);
        assertThat(renamed.text("name")).isEqualTo("Trips");
        assertThat(renamed.text("createdAt")).isEqualTo(travel.text("createdAt"));
        assertThat(api.call("PATCH", "/users/jessica/tags/t1", "{\"name\":\"TRIPS\"}").status()).isEqualTo(200);
        assertThat(api.call("POST", "/users/jessica/tags", "{\"tagId\":\"t4\",\"name\":\"travel\"}").status())
                .isEqualTo(201);
        assertThat(api.call("POST", "/users/jessica/tags", "{\"name\":\"trips\"}").status()).isEqualTo(409);
        assertThat(api.call("PATCH", "/users/jessica/tags/nope", "{\"name\":\"x\"}").status()).isEqualTo(404);

        var deleted = api.call("DELETE", "/users/jessica/tags/t1");
        assertThat(deleted.status()).isEqualTo(200);
        assertThat(deleted.text("name")).isEqualTo("TRIPS");
        assertThat(api.call("DELETE", "/users/jessica/tags/t1").errorCode()).isEqualTo("not_found");
        assertThat(api.call("POST", "/users/jessica/tags", "{\"name\":\"Trips\"}").status()).isEqualTo(201);
        assertThat(api.call("GET", "/users/nobody/tags").status()).isEqualTo(404);
    }

    @Test
    void favourites_collectGetListByTypeUncollect() {
        var created = api.call("POST", "/users/jessica/favourites", "{\"favouriteId\":\"f1\",\"type\":\"image\","
                + "\"title\":\"Sunset over Naples\",\"contentUrl\":\"https://img.example/1\","
                + "\"thumbnailUrl\":\"https://img.example/1t\",\"creatorId\":\"c1\"}");
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.body().fieldNames()).toIterable().containsExactly("favouriteId", "userId", "type", "title",
                "contentUrl", "thumbnailUrl", "creatorId", "clippedAt");
        assertThat(created.headers()).containsEntry("Location", "/users/jessica/favourites/f1");
        var link = collect("f2", "link", "Pizza recipe");
        assertThat(link.body().get("contentUrl").isNull()).isTrue();
        collect("f3", "image", "Mountains");
        var generated = api.call("POST", "/users/jessica/favourites", "{\"type\":\"location\",\"title\":\"Home\"}");
        assertThat(generated.text("favouriteId")).hasSize(26);

        assertThat(collect("f1", "file", "again").errorCode()).isEqualTo("conflict");
        assertThat(api.call("POST", "/users/nobody/favourites", "{\"type\":\"file\",\"title\":\"x\"}").status())
                .isEqualTo(404);
        assertThat(api.call("GET", "/users/jessica/favourites/f1").body()).isEqualTo(created.body());
        assertThat(api.call("GET", "/users/jessica/favourites/nope").status()).isEqualTo(404);

        assertThat(ids(api.call("GET", "/users/jessica/favourites"), "favouriteId"))
                .containsExactly(generated.text("favouriteId"), "f3", "f2", "f1");
        var first = api.call("GET", "/users/jessica/favourites?limit=3");
        assertThat(ids(first, "favouriteId")).containsExactly(generated.text("favouriteId"), "f3", "f2");
        var rest = api.call("GET", "/users/jessica/favourites?limit=3&cursor=" + first.text("cursor"));
        assertThat(ids(rest, "favouriteId")).containsExactly("f1");
        assertThat(rest.body().get("cursor").isNull()).isTrue();
        assertThat(ids(api.call("GET", "/users/jessica/favourites?type=image"), "favouriteId"))
                .containsExactly("f3", "f1");
        assertThat(api.call("GET", "/users/jessica/favourites?type=image").body().get("items").get(1))
                .isEqualTo(created.body());
        assertThat(api.call("GET", "/users/nobody/favourites").status()).isEqualTo(404);

        var removed = api.call("DELETE", "/users/jessica/favourites/f1");
        assertThat(removed.status()).isEqualTo(200);
        assertThat(removed.body()).isEqualTo(created.body());
        assertThat(api.call("DELETE", "/users/jessica/favourites/f1").status()).isEqualTo(404);
        assertThat(ids(api.call("GET", "/users/jessica/favourites?type=image"), "favouriteId")).containsExactly("f3");
        assertThat(collect("f1", "note", "back").status()).isEqualTo(201);
    }

    @Test
    void links_putTwiceListByTagAndTypeUnlink_andListingByTagSetsLastAccessOncePerMinute() {
        collect("f1", "image", "Beach");
        collect("f2", "link", "Hotel");
        collect("f3", "image", "Harbour");
        var tag = api.call("POST", "/users/jessica/tags", "{\"tagId\":\"trip\",\"name\":\"Trip\"}");
        api.call("POST", "/users/jessica/tags", "{\"tagId\":\"work\",\"name\":\"Work\"}");

        var linked = api.call("PUT", "/users/jessica/favourites/f1/tags/trip", null);
        assertThat(linked.status()).isEqualTo(201);
        assertThat(linked.body().fieldNames()).toIterable().containsExactly("favouriteId", "tagId", "linkedAt");
        var again = api.call("PUT", "/users/jessica/favourites/f1/tags/trip", null);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.text("linkedAt")).isEqualTo(linked.text("linkedAt"));
        api.call("PUT", "/users/jessica/favourites/f2/tags/trip", null);
        api.call("PUT", "/users/jessica/favourites/f3/tags/trip", null);
        api.call("PUT", "/users/jessica/favourites/f1/tags/work", null);
        assertThat(api.call("PUT", "/users/jessica/favourites/nope/tags/trip", null).status()).isEqualTo(404);
        assertThat(api.call("PUT", "/users/jessica/favourites/f1/tags/nope", null).status()).isEqualTo(404);

        var tags = api.call("GET", "/users/jessica/favourites/f1/tags");
        assertThat(ids(tags, "tagId")).containsExactly("trip", "work");
        assertThat(tags.body().get("items").get(0).fieldNames()).toIterable()
                .containsExactly("tagId", "name", "createdAt", "lastAccessAt");
        assertThat(api.call("GET", "/users/jessica/favourites/nope/tags").status()).isEqualTo(404);

        // Created within the minute: listing by the tag writes nothing yet.
        assertThat(ids(api.call("GET", "/users/jessica/favourites?tag=trip"), "favouriteId"))
                .containsExactly("f3", "f2", "f1");
        assertThat(tagNamed(api.call("GET", "/users/jessica/tags"), "trip").get("lastAccessAt").asText())
                .isEqualTo(tag.text("lastAccessAt"));
        clock.advance(Duration.ofMinutes(2));
        api.call("GET", "/users/jessica/favourites?tag=trip");
        JsonNode accessed = tagNamed(api.call("GET", "/users/jessica/tags?sort=accessed"), "trip");
        assertThat(accessed.get("lastAccessAt").asText()).isNotEqualTo(tag.text("lastAccessAt"));
        assertThat(ids(api.call("GET", "/users/jessica/tags?sort=accessed"), "tagId")).startsWith("trip");
        // Within the minute a second listing does not write; after it, it does.
        assertThat(ids(api.call("GET", "/users/jessica/favourites?tag=trip&type=image"), "favouriteId"))
                .containsExactly("f3", "f1");
        assertThat(tagNamed(api.call("GET", "/users/jessica/tags"), "trip").get("lastAccessAt"))
                .isEqualTo(accessed.get("lastAccessAt"));
        clock.advance(Duration.ofMinutes(2));
        api.call("GET", "/users/jessica/favourites?tag=trip&limit=1");
        assertThat(tagNamed(api.call("GET", "/users/jessica/tags"), "trip").get("lastAccessAt"))
                .isNotEqualTo(accessed.get("lastAccessAt"));
        var paged = api.call("GET", "/users/jessica/favourites?tag=trip&limit=2");
        assertThat(ids(api.call("GET", "/users/jessica/favourites?tag=trip&limit=2&cursor=" + paged.text("cursor")),
                "favouriteId")).containsExactly("f1");
        assertThat(api.call("GET", "/users/jessica/favourites?tag=nope").status()).isEqualTo(404);

        assertThat(api.call("DELETE", "/users/jessica/favourites/f1/tags/trip").status()).isEqualTo(200);
        assertThat(api.call("DELETE", "/users/jessica/favourites/f1/tags/trip").errorCode()).isEqualTo("not_found");
        assertThat(ids(api.call("GET", "/users/jessica/favourites?tag=trip"), "favouriteId")).containsExactly("f3", "f2");
    }

    private static JsonNode tagNamed(TestApi.Response list, String tagId) {
        for (JsonNode item : list.body().get("items")) {
            if (item.get("tagId").asText().equals(tagId)) {
                return item;
            }
        }
        throw new AssertionError("no tag " + tagId + " in " + list.body());
    }

    @Test
    void searchAndStats_readTheDerivedSide_zerosBeforeTheStreamAnd404sForUnknownUsers() {
        collect("f1", "image", "Pizza in Naples");
        var search = api.call("GET", "/users/jessica/favourites/search?q=pizza");
        assertThat(search.status()).isEqualTo(200);
        // No stream processor runs here: the projection is empty, the route answers from it alone.
        assertThat(search.body().toString()).isEqualTo("{\"items\":[],\"cursor\":null}");
        assertThat(api.call("GET", "/users/nobody/favourites/search?q=pizza").status()).isEqualTo(404);
        var stats = api.call("GET", "/stats/users/jessica/favourites");
        assertThat(stats.body().toString())
                .isEqualTo("{\"userId\":\"jessica\",\"favourites\":0,\"byType\":{},\"byTag\":{}}");
        assertThat(api.call("GET", "/stats/users/nobody/favourites").status()).isEqualTo(404);
        assertThat(api.call("GET", "/stats/global").body().fieldNames()).toIterable().endsWith("favourites");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "POST|/users/jessica/tags|{\"name\":\"\"}|validation_failed|name",
            "POST|/users/jessica/tags|{\"name\":\"012345678901234567890123456789012345678901234567890\"}|validation_failed|name",
            "POST|/users/jessica/tags|{\"name\":\"a\",\"colour\":\"red\"}|validation_failed|colour",
            "PATCH|/users/jessica/tags/t1|{}|validation_failed|name",
            "GET|/users/jessica/tags?sort=size||bad_request|sort",
            "POST|/users/jessica/favourites|{\"type\":\"picture\",\"title\":\"x\"}|validation_failed|type",
            "POST|/users/jessica/favourites|{\"type\":\"image\"}|validation_failed|title",
            "POST|/users/jessica/favourites|{\"favouriteId\":\"search\",\"type\":\"image\",\"title\":\"x\"}|validation_failed|favouriteId",
            "POST|/users/jessica/favourites|{\"favouriteId\":\"a#b\",\"type\":\"image\",\"title\":\"x\"}|validation_failed|favouriteId",
            "POST|/users/jessica/favourites|[1]|bad_request|",
            "GET|/users/jessica/favourites?type=picture||bad_request|type",
            "GET|/users/jessica/favourites?tag=a%23b||bad_request|tag",
            "GET|/users/jessica/favourites?limit=0||bad_request|limit",
            "GET|/users/jessica/favourites?cursor=forged||bad_request|cursor",
            "GET|/users/jessica/favourites/search||bad_request|q",
            "GET|/users/jessica/favourites/search?q=%20!%20||bad_request|q",
            "GET|/users/jessica/favourites/search?q=a&cursor=forged||bad_request|cursor",
            "GET|/users/jessica/favourites/search?q=a&limit=101||bad_request|limit",
            "GET|/users/jessica/favourites/search/tags||not_found|",
            "GET|/users/a%23b/favourites||validation_failed|userId",
            "PUT|/users/jessica/favourites||method_not_allowed|",
    })
    void badInput_isTheErrorEnvelope_never500(String method, String path, String body, String code, String field) {
        api.call(method, path, body).assertClientError(code, field);
    }
}
