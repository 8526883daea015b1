package io.tally.domains.favs;

import static io.tally.core.derive.Announcement.created;
import static io.tally.core.derive.Announcement.removed;
import static io.tally.core.domain.DashboardSection.Figure.tile;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.ShardSettings;
import io.tally.core.SharedCounter;
import io.tally.core.derive.Derivation;
import io.tally.core.domain.DashboardSection;
import io.tally.core.domain.Declaration;
import io.tally.core.domain.DeclaredDomain;
import io.tally.core.domain.RouteContext;
import io.tally.core.http.Router;
import io.tally.core.users.Users;
import io.tally.core.users.UsersDomain;
import io.tally.domains.favs.FavEvents.FavouriteDetail;
import io.tally.domains.favs.FavEvents.LinkDetail;
import io.tally.domains.favs.FavEvents.TagDetail;
import java.util.List;

/**
 * Favourites with tags (seed 004), declared once: entity types, derived types, routes, the figures per user (a view,
 * {@link FavFigures}), the search entries' derivation, events ({@link FavEvents}), the cascades that remove the links
 * of a deleted favourite or tag ({@link FavouriteLinks}, {@link TagLinks}), and what the domain counts in the global
 * totals. Keys are in {@link FavKeys}.
 */
public final class Favs extends DeclaredDomain {
    public static final EntityType TAG = EntityType.base("Tag");
    /** Reserves a tag name for one user, ignoring case. */
    public static final EntityType TAG_NAME = EntityType.base("TagName");
    public static final EntityType FAVOURITE = EntityType.base("Favourite");
    public static final EntityType FAVOURITE_TAG = EntityType.base("FavouriteTag");
    /** The version that serialises additions against a limit ({@link FavQuota}): a user's tags, a favourite's links. */
    public static final EntityType QUOTA = EntityType.base("FavQuota");

    public static final SharedCounter GLOBAL_FAVOURITES = SharedCounter.of(Users.GLOBAL_STATS, "favourites");

    /** The attribute of a search entry holding its title's words, each between spaces. */
    public static final String SEARCH_WORDS = "words";

    /**
     * The search projection: one entry per favourite and term of its title ({@link SearchTerms}), holding the
     * favourite's fields, in the sparse FavouriteSearch index while the favourite exists (its index keys are part of
     * the document, which a removal takes away).
     */
    public static final DerivedType SEARCH_ENTRY = DerivedType.named("FavouriteSearchEntry")
            .key("FAVSEARCH#<userId>#<favouriteId> / <term>", FavKeys::searchEntry)
            .document(Favourite.FAVOURITE_ID, Favourite.USER_ID, Favourite.TYPE, Favourite.TITLE, Favourite.CONTENT_URL,
                    Favourite.THUMBNAIL_URL, Favourite.CREATOR_ID, Favourite.CLIPPED_AT, SEARCH_WORDS)
            .indexKeys(FavKeys.SEARCH_KEY, FavKeys.CLIPPED_KEY)
            .build();

    /** The favourites' part of the dashboard: their total (a user's favourites are not the read side's to show). */
    private static final List<DashboardSection> DASHBOARD = List.of(
            DashboardSection.totals("/stats/global", tile("Favourites", "global.favourites", "favourites")));

    /** Events about a user's own tags and favourites: none is for a public feed. */
    public Favs() {
        super(Declaration.of("favourites")
                .requires(UsersDomain.NAME)
                .entityTypes(TAG, TAG_NAME, FAVOURITE, FAVOURITE_TAG, QUOTA)
                .keyPatterns(TAG, "TAGS#<userId> / TAG#<tagId>")
                .keyPatterns(TAG_NAME, "TAGS#<userId> / TAGNAME#<name>")
                .keyPatterns(FAVOURITE, "FAVS#<userId> / FAV#<favouriteId>")
                .keyPatterns(FAVOURITE_TAG, "FAVTAGS#<userId>#<favouriteId> / TAG#<tagId>")
                .keyPatterns(QUOTA, "TAGS#<userId> / #QUOTA#", "FAVTAGS#<userId>#<favouriteId> / #QUOTA#")
                .derivedTypes(SEARCH_ENTRY)
                .indexes(FavKeys.TAGS_BY_NAME, FavKeys.TAGS_BY_CREATION, FavKeys.TAGS_BY_ACCESS,
                        FavKeys.FAVOURITES_BY_TYPE, FavKeys.LINKS_BY_TAG, FavKeys.LINKS_BY_TAG_TYPE,
                        FavKeys.FAVOURITE_SEARCH)
                .views(FavFigures.STATS, FavFigures.GLOBAL)
                .sharedCounters(GLOBAL_FAVOURITES)
                .events(FavEvents.TAG_CREATED, FavEvents.TAG_RENAMED, FavEvents.TAG_DELETED,
                        FavEvents.FAVOURITE_COLLECTED, FavEvents.FAVOURITE_UNCOLLECTED, FavEvents.FAVOURITE_TAGGED,
                        FavEvents.FAVOURITE_UNTAGGED)
                .announces(FavEvents.TAG_CREATED, Tag.SCHEMA, TagDetail::subject, created(TagDetail::of))
                .announces(FavEvents.TAG_RENAMED, Tag.SCHEMA, TagDetail::subject, TagDetail::renamed)
                .announces(FavEvents.TAG_DELETED, Tag.SCHEMA, TagDetail::subject, removed(TagDetail::of))
                .announces(FavEvents.FAVOURITE_COLLECTED, Favourite.SCHEMA, FavouriteDetail::subject,
                        created(FavouriteDetail::of))
                .announces(FavEvents.FAVOURITE_UNCOLLECTED, Favourite.SCHEMA, FavouriteDetail::subject,
                        removed(FavouriteDetail::of))
                // Untagged before tagged: a link replaced by a later favourite's or tag's is one that went, then one
                // that came.
                .announces(FavEvents.FAVOURITE_UNTAGGED, FavouriteTag.SCHEMA, LinkDetail::subject,
                        removed(FavouriteTag::sameAs, LinkDetail::of))
                .announces(FavEvents.FAVOURITE_TAGGED, FavouriteTag.SCHEMA, LinkDetail::subject,
                        created(FavouriteTag::sameAs, LinkDetail::of))
                // An un-collect removes the favourite's links, a deletion the tag's (of the incarnation gone, also when a
                // later one of the same id replaced it); the links' own REMOVE records then count tag:<tagId> down.
                .removes(Favourite.SCHEMA, (before, after) -> before.incarnation().equals(after.incarnation()),
                        FavouriteLinks::of, FavouriteTag.SCHEMA, FavouriteLinks::of)
                .removes(Tag.SCHEMA, (before, after) -> before.incarnation().equals(after.incarnation()), TagLinks::of,
                        FavouriteTag.SCHEMA, TagLinks::of)
                .resources(FavouriteRoutes.RESOURCE)
                .dashboard(DASHBOARD)
                .demoSeed(FavsDemo::seed)
                .workload(FavWorkload::new));
    }

    /** Its stores over the table and the routes that use them; routes reach the table only through the stores. */
    @Override
    public void routes(Router router, RouteContext context) {
        FavStore favourites = new FavStore(context.dynamo(), context.table());
        TagStore tags = new TagStore(context.dynamo(), context.table());
        new TagRoutes(context, tags, favourites).register(router);
        new FavouriteRoutes(context, favourites, tags).register(router);
        new LinkRoutes(context, favourites, tags).register(router);
    }

    @Override
    public List<Derivation> derivations(ShardSettings shards) {
        return List.of(new FavouriteDerivation());
    }
}
