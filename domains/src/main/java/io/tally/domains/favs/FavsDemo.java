package io.tally.domains.favs;

import static io.tally.core.demo.DemoApi.body;

import io.tally.core.demo.DemoApi;
import java.io.IOException;

/** Seed 004's favourites of user-8790 (an image, a link, a file and a location) under the tags Travel, Recipes, Work. */
final class FavsDemo {
    private FavsDemo() {
    }

    static void seed(DemoApi api) throws IOException, InterruptedException {
        api.write("POST", "/users/user-8790/tags", body("tagId", "travel", "name", "Travel"));
        api.write("POST", "/users/user-8790/tags", body("tagId", "recipes", "name", "Recipes"));
        api.write("POST", "/users/user-8790/tags", body("tagId", "work", "name", "Work"));
        api.write("POST", "/users/user-8790/favourites", body("favouriteId", "naples-harbour", "type", "image",
                "title", "Naples harbour at sunset", "contentUrl", "https://example.com/naples.jpg",
                "thumbnailUrl", "https://example.com/naples-thumb.jpg"));
        api.write("POST", "/users/user-8790/favourites", body("favouriteId", "pizza-dough", "type", "link",
                "title", "Neapolitan pizza dough", "contentUrl", "https://example.com/pizza-dough"));
        api.write("POST", "/users/user-8790/favourites", body("favouriteId", "streams-paper", "type", "file",
                "title", "DynamoDB Streams notes", "contentUrl", "https://example.com/streams.pdf", "creatorId",
                "user-1001"));
        api.write("POST", "/users/user-8790/favourites", body("favouriteId", "pizzeria", "type", "location",
                "title", "Pizzeria da Michele, Naples"));
        api.write("PUT", "/users/user-8790/favourites/naples-harbour/tags/travel", null);
        api.write("PUT", "/users/user-8790/favourites/pizzeria/tags/travel", null);
        api.write("PUT", "/users/user-8790/favourites/pizzeria/tags/recipes", null);
        api.write("PUT", "/users/user-8790/favourites/pizza-dough/tags/recipes", null);
        api.write("PUT", "/users/user-8790/favourites/streams-paper/tags/work", null);
    }
}
