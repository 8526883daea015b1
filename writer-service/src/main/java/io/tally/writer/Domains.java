package io.tally.writer;

import io.tally.core.DomainSchema;
import io.tally.core.blog.Blog;
import io.tally.core.catalogue.Catalogue;
import io.tally.core.favs.Favs;
import io.tally.core.orgs.Orgs;
import io.tally.core.songs.Songs;
import io.tally.writer.blog.BlogJson;
import io.tally.writer.blog.BlogDomain;
import io.tally.writer.catalogue.CatalogueDomain;
import io.tally.writer.favs.FavsDomain;
import io.tally.core.http.RouteContext;
import io.tally.writer.orgs.OrgsDomain;
import io.tally.writer.songs.SongsDomain;
import io.tally.core.http.Router;
import io.tally.writer.stats.GlobalStatsFields;
import io.tally.writer.stats.StatsDomain;
import java.util.List;

/**
 * The writer service's one registration point, the counterpart of core's {@link io.tally.core.domains.Domains}:
 * a new domain is one line in {@link #ALL}. The shared stats come last because they take every domain's part.
 */
final class Domains {
    /** What the writer service knows of one domain. */
    record Domain(DomainSchema schema, Registration routes, GlobalStatsFields globalStats) {
    }

    /** Builds a domain's stores and adds its routes. */
    @FunctionalInterface
    interface Registration {
        void register(Router router, RouteContext context);
    }

    /** In the order of core's list, which is the order the global totals show the domains' parts in. */
    static final List<Domain> ALL = List.of(
            new Domain(Blog.SCHEMA, BlogDomain::register, BlogJson::globalStats),
            new Domain(Catalogue.SCHEMA, CatalogueDomain::register, GlobalStatsFields.flat(Catalogue.SCHEMA)),
            new Domain(Orgs.SCHEMA, OrgsDomain::register, GlobalStatsFields.flat(Orgs.SCHEMA)),
            new Domain(Songs.SCHEMA, SongsDomain::register, GlobalStatsFields.flat(Songs.SCHEMA)),
            new Domain(Favs.SCHEMA, FavsDomain::register, GlobalStatsFields.flat(Favs.SCHEMA)));

    static {
        List<DomainSchema> schemas = ALL.stream().map(Domain::schema).toList();
        if (!schemas.equals(io.tally.core.domains.Domains.ALL)) {
            throw new IllegalStateException("the writer's domains " + names(schemas) + " are not core's "
                    + names(io.tally.core.domains.Domains.ALL));
        }
    }

    private Domains() {
    }

    /** Every domain's routes, then the shared stats. */
    static void register(Router router, RouteContext context) {
        ALL.forEach(domain -> domain.routes().register(router, context));
        StatsDomain.register(router, context, ALL.stream().map(Domain::globalStats).toList());
    }

    private static List<String> names(List<DomainSchema> schemas) {
        return schemas.stream().map(DomainSchema::name).toList();
    }
}
