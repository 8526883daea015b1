package io.tally.domains.catalogue;

import io.tally.core.domain.RouteContext;
import io.tally.core.domain.ShardedList;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Router;
import io.tally.core.users.UsersDomain;
import java.util.List;
import java.util.stream.IntStream;

/**
 * {@code GET /selectors/{selector}}: the catalogue's read side (access pattern D5), the items' entries of the
 * CycleSelector index by score descending, ties by item id descending ({@link CatalogueFigures#SELECTORS}, merged
 * over the selector's partitions). The stream processor derives them, so it is eventually consistent with the writes.
 */
record SelectorRoutes(RouteContext context) {
    private static final ShardedList SELECTOR = ShardedList.of(CatalogueFigures.SELECTORS,
            UsersDomain.RANKINGS_INDEX);

    void register(Router router) {
        router.add("GET", "/selectors/{selector}", Access.READ_SIDE, this::selector)
                .summary("Catalogue items of a selector, by score descending (eventually consistent)")
                .page(SelectorEntry.class);
    }

    /**
     * A cursor is only good for the selector that issued it, read with the same number of partitions: a cursor from
     * before the shard count changed is refused rather than misread.
     */
    ApiResponse selector(ApiRequest request) {
        String selector = request.pathParameters().get("selector");
        if (!Selectors.isValid(selector)) {
            throw ApiException.validation("selector", Selectors.describeRule());
        }
        List<String> partitions = partitions(selector, context.shards().count(CatalogueKeys.SELECTOR_SHARDS));
        return SELECTOR.page(context, request, "selector\n" + selector + "\n" + partitions.size(), partitions);
    }

    /**
     * The index partitions of a selector: a cycle is one, the back catalogue is spread over
     * {@code back-catalogue:0..K-1} (see {@link CatalogueKeys#selectorPartition}).
     */
    static List<String> partitions(String selector, int backCatalogueShards) {
        if (!Selectors.BACK_CATALOGUE.equals(selector)) {
            return List.of(selector);
        }
        return IntStream.range(0, backCatalogueShards).mapToObj(CatalogueKeys::backCatalogueShard).toList();
    }
}
