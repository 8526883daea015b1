package io.tally.domains.catalogue;

import static io.tally.core.demo.DemoApi.body;

import io.tally.core.demo.DemoApi;
import java.io.IOException;

/** The learning catalogue of seed 003 (items 3, 34, 45, 55, 65, 84 and 102) and user-8790's items in every state. */
final class CatalogueDemo {
    private CatalogueDemo() {
    }

    static void seed(DemoApi api) throws IOException, InterruptedException {
        api.write("PUT", "/items/55", body("title", "Week 5: streams", "score", 70, "selector", "global-cycle:5"));
        api.write("PUT", "/items/65", body("title", "Week 5: indexes", "score", 80, "selector", "global-cycle:5"));
        api.write("PUT", "/items/84", body("title", "Assigned to you", "score", 350, "selector", "user-cycle:1"));
        api.write("PUT", "/items/3", body("title", "Partition keys", "score", 99, "selector", "back-catalogue"));
        api.write("PUT", "/items/45", body("title", "Sort keys", "score", 87, "selector", "back-catalogue"));
        api.write("PUT", "/items/34", body("title", "Hot partitions", "score", 12, "selector", "back-catalogue"));
        api.write("PUT", "/items/102", body("title", "Sparse indexes", "score", 40, "selector", "back-catalogue"));

        api.write("PUT", "/users/user-8790/items/45", body("state", "assigned"));
        api.write("PUT", "/users/user-8790/items/84", body("state", "assigned"));
        api.write("PUT", "/users/user-8790/items/55", body("state", "completed", "correct", true));
        api.write("PUT", "/users/user-8790/items/102", body("state", "completed", "live", true));
        api.write("PUT", "/users/user-8790/items/34", body("state", "orphaned"));
        api.write("PUT", "/users/user-8790/items/3", body("state", "in-progress", "progress", 0.87));
    }
}
