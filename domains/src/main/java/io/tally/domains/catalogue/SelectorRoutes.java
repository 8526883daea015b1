package io.tally.domains.catalogue;

import io.tally.core.domain.RouteContext;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Json;
import io.tally.core.http.Page;
import io.tally.core.http.Router;
import io.tally.core.read.ShardMerge.MergedPage;
import io.tally.core.read.ShardMerge.Resume;
import io.tally.core.read.ShardMerge;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * {@code GET /selectors/{selector}}: the catalogue's read side. It reads the selector entries of the
 * CycleSelector index, which the stream processor derives, so it is eventually consistent with the writes.
 */
record SelectorRoutes(RouteContext context, SelectorStore selectors) {
    void register(Router router) {
        router.add("GET", "/selectors/{selector}", Access.READ_SIDE, this::selector)
                .summary("Catalogue items of a selector, by score descending (eventually consistent)")
                .page(SelectorEntry.class);
    }

    ApiResponse selector(ApiRequest request) {
        String selector = request.pathParameters().get("selector");
        if (!Selectors.isValid(selector)) {
            throw ApiException.validation("selector", Selectors.describeRule());
        }
        int limit = Page.limit(request);
        List<String> partitions = SelectorRequests.selectorPartitions(selector, context.shards().count(CatalogueKeys.SELECTOR_SHARDS));
        String scope = SelectorRequests.selectorScope(selector, partitions.size());
        List<Resume> from = ShardMerge.decode(context.cursors(), scope, request.queryParameter("cursor"),
                partitions.size(), SelectorRequests::isValidSelectorPosition);
        MergedPage<Map<String, AttributeValue>> page = selectors.page(partitions, from, limit);
        return ApiResponse.ok(Page.body(page.items().stream()
                .map(item -> Json.tree(CatalogueFigures.SELECTORS.read(item))).toList(),
                ShardMerge.encode(context.cursors(), scope, page.next())));
    }
}
