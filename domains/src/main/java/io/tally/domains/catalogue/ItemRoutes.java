package io.tally.domains.catalogue;

import io.tally.core.Timestamps;
import io.tally.core.domain.EntityResource;
import io.tally.core.domain.RouteContext;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.Field;
import io.tally.core.http.Fields;
import io.tally.core.http.Router;
import java.time.Instant;

/** {@code PUT}, {@code GET} and {@code DELETE /items/{itemId}} ({@link #RESOURCE}): the learning catalogue (seed 003). */
record ItemRoutes(RouteContext context, ItemStore items) {
    static final int TITLE_MAX = 200;
    /** Longer than any valid selector; a longer string fails on length before the selector rule. */
    static final int SELECTOR_MAX = 64;
    private static final Field<String> TITLE = Field.string("title", 1, TITLE_MAX);
    private static final Field<Long> SCORE = Field.whole("score", 0, CatalogueItem.MAX_SCORE);
    /** A selector ({@link Selectors#isValid}), which the handler checks. */
    private static final Field<String> SELECTOR = Field.string("selector", 1, SELECTOR_MAX).required();
    /** The body of {@code PUT /items/{itemId}}. */
    private static final Fields FIELDS = Fields.of(TITLE, SCORE, SELECTOR);

    /**
     * Catalogue items read by any signed-in user, and deleted alone (a hard delete: users' items that refer to one stay,
     * as they record the user's history, their score a copy taken when they were written); {@code PUT} is this
     * record's (a revision that only grows, {@link ItemStore#put}).
     */
    static final EntityResource<CatalogueItem> RESOURCE = EntityResource.at("/items/{itemId}", CatalogueItem.SCHEMA,
                    ids -> CatalogueKeys.catalogueItem(ids.get("itemId")))
            .get(Access.SIGNED_IN, "A catalogue item")
            .delete(Access.ADMIN, "Delete a catalogue item (users' items that refer to it stay)");

    void register(Router router) {
        router.add("PUT", "/items/{itemId}", Access.ADMIN, this::put)
                    .summary("Create or replace a catalogue item (201 created, 200 replaced)").body(FIELDS)
                    .returns(201, CatalogueItem.class);
    }

    ApiResponse put(ApiRequest request) {
        String itemId = request.id("itemId");
        Body body = Body.parse(request.body(), FIELDS);
        String title = body.get(TITLE);
        long score = body.get(SCORE);
        String selector = body.get(SELECTOR);
        if (!Selectors.isValid(selector)) {
            throw ApiException.validation("selector", Selectors.describeRule());
        }
        // One reading of the clock: the contract's updatedAt (milliseconds) and the revision (microseconds).
        Instant now = context.clock().instant();
        CatalogueItem item = new CatalogueItem(itemId, title, score, selector, Timestamps.truncate(now), 0);
        // The revision is bookkeeping of the stream processor: the response renders the contract's fields only.
        if (items.put(item, now)) {
            return ApiResponse.created(item, "/items/" + itemId);
        }
        return ApiResponse.ok(item);
    }
}
