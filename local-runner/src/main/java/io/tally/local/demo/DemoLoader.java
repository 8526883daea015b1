package io.tally.local.demo;

import io.tally.core.demo.DemoApi;
import io.tally.core.domain.Domain;
import io.tally.core.domain.DomainRegistry;
import java.io.IOException;
import java.net.URI;

/**
 * Loads the seed scenario through the writer API, over HTTP, as a person following the README's walkthrough would:
 * each domain's part ({@link Domain#demoSeed}) in the registry's order, so that a domain finds the users and items of
 * the domains it requires. The seed domains write user-8790 and two more users, a few posts and comments, the learning
 * catalogue of seed 003, seed 002's organisation ABC, six songs with a fortnight of downloads and seed 004's
 * favourites of user-8790.
 *
 * <p>Every write names its identifiers, so the scenario is loaded once: on a data directory that already holds it
 * the writes answer 409 (users, posts) or replace what is there (items), and {@link #loadSeed()} fails on the first
 * conflict rather than counting things twice.
 */
public final class DemoLoader {
    private final DomainRegistry domains;
    private final DemoApi api;

    /** @param base the writer API, e.g. {@code http://127.0.0.1:8080} */
    public DemoLoader(DomainRegistry domains, URI base) {
        this.domains = domains;
        this.api = new ApiClient(base);
    }

    /**
     * Writes the seed scenario; returns the number of writes.
     *
     * @throws IOException if a write is refused (e.g. the scenario is there already) or the API cannot be reached
     */
    public int loadSeed() throws IOException, InterruptedException {
        int[] writes = {0};
        DemoApi counting = (method, path, body) -> {
            DemoApi.Reply reply = api.send(method, path, body);
            writes[0]++;
            return reply;
        };
        for (Domain domain : domains.domains()) {
            domain.demoSeed(counting);
        }
        return writes[0];
    }
}
