package io.tally.domains.songs;

import static io.tally.core.derive.Announcement.created;
import static io.tally.core.domain.DashboardSection.Figure.tile;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.ShardSettings;
import io.tally.core.SharedCounter;
import io.tally.core.TableSchema;
import io.tally.core.derive.Derivation;
import io.tally.core.domain.DashboardSection.Rows;
import io.tally.core.domain.DashboardSection;
import io.tally.core.domain.Declaration;
import io.tally.core.domain.DeclaredDomain;
import io.tally.core.domain.RouteContext;
import io.tally.core.http.Router;
import io.tally.core.users.Users;
import io.tally.core.users.UsersDomain;
import java.util.List;

/**
 * Songs and their downloads (seed 002's "downloads of a song in a month"), declared once: entity types, the shard
 * counts, the derived types, routes, derivations, events, and what the domain counts in the global totals. Keys are in
 * {@link SongKeys}.
 */
public final class Songs extends DeclaredDomain {
    public static final EntityType SONG = EntityType.base("Song");
    public static final EntityType DOWNLOAD = EntityType.base("Download");

    /**
     * Partitions of one song's download items (write sharding with a calculated suffix). A download item is one write
     * unit and one partition takes 1,000 a second; ten partitions take a hot song's 10,000 downloads a second. It is
     * part of every download's key: changing it would lose the downloads already written (their deletes would look in
     * the wrong partition), so it is a constant, not a setting.
     */
    public static final int DOWNLOAD_SHARDS = 10;

    /**
     * Partitions of one month's chart in the CycleSelector index ({@code chart:<yyyy-MM>:<k>}). Every download moves
     * its song's entry, so one partition would take the index writes of every song of the month. The read side
     * queries them all and merges; entries are placed by song id, so a rebuild finds them where the stream put them.
     */
    public static final int CHART_SHARDS = 4;

    /** The figure of all-time, per-day and per-period counters, and of the global totals. */
    public static final String DOWNLOADS = "downloads";
    public static final SharedCounter GLOBAL_DOWNLOADS = SharedCounter.of(Users.GLOBAL_STATS, "downloads");

    /**
     * A song's all-time downloads (counting downloads not refunded). Shared: a song's downloads live in its
     * {@link #DOWNLOAD_SHARDS} download partitions, each of them written through its own stream shard.
     */
    public static final DerivedType SONG_STATS = DerivedType.named("SongStats")
            .key("SONG#<songId> / #STATS#", SongKeys::songStats)
            .counters(DOWNLOADS)
            .shared()
            .build();

    /** A song's downloads on one UTC day; the subject is {@code <songId>#<yyyy-MM-dd>}. Shared, as its stats. */
    public static final DerivedType SONG_DAY = DerivedType.named("SongDay")
            .key("SONG#<songId> / DAY#<yyyy-MM-dd>", SongKeys::songDay)
            .counters(DOWNLOADS)
            .shared()
            .build();

    /**
     * A song's downloads in one UTC month, and its entry in that month's chart: the count is the index's range key
     * {@code data} (seed 002's overloaded Data attribute), the partition {@code chart:<yyyy-MM>:<k>}. The subject is
     * {@code <songId>#<yyyy-MM>}. The document (song, month, partition) is the same for every download of the song in
     * the month, which all hold it: a refund keeps it, so an entry whose count falls to zero stays, with
     * {@code data} 0, and the chart reads entries above zero only.
     */
    public static final DerivedType SONG_MONTH = DerivedType.named("SongMonth")
            .key("SONG#<songId> / MONTH#<yyyy-MM>", SongKeys::songMonth)
            .counters(TableSchema.DATA)
            .document(Month.SONG_ID, Month.MONTH)
            .indexKeys(TableSchema.SELECTOR)
            .build();

    /**
     * All songs' downloads on one UTC day; the subject is the day. Every download of the application changes it, so
     * every stream shard writes it: it is slotted as the global totals are (and so shared: one partial per stream shard),
     * each slot a partition of its own written by the shards of that slot, and readers sum the slots and partials.
     */
    public static final DerivedType DOWNLOAD_DAY = DerivedType.named("DownloadDay")
            .key("DOWNLOADS#DAYS#<k> / DAY#<yyyy-MM-dd>", SongKeys::downloadDay)
            .counters(DOWNLOADS)
            .slotted()
            .build();

    /** Attribute names of {@link #SONG_MONTH}'s document. */
    public static final class Month {
        public static final String SONG_ID = "songId";
        public static final String MONTH = "month";

        private Month() {
        }
    }

    /** The songs' part of the dashboard: their total, the month's chart, and all songs' downloads over the last 30 days. */
    private static final List<DashboardSection> DASHBOARD = List.of(
            DashboardSection.totals("/stats/global", tile("Downloads", "global.downloads", "downloads")),
            DashboardSection.bars("top-songs", "Top songs, {month}", "/charts/downloads/{month}?limit=10",
                    Rows.of("items", "downloads", "{title}", "{songId}").figure("songs.top.{songId}"), "#8a5cd6"),
            DashboardSection.days("downloads", "Downloads per day, last 30 days",
                    "/stats/downloads/days?from={from}&to={to}", Rows.of("days", "downloads", "{day}"), "#13a383"));

    /** Its events are {@link SongEvents}'. */
    public Songs() {
        super(Declaration.of("songs")
                .requires(UsersDomain.NAME)
                .entityTypes(SONG, DOWNLOAD)
                .keyPatterns(SONG, "SONG#<songId> / #METADATA#")
                .keyPatterns(DOWNLOAD, "SONG#<songId>#DL#<k> / DL#<downloadId>")
                .derivedTypes(SONG_STATS, SONG_DAY, SONG_MONTH, DOWNLOAD_DAY)
                .projects(TableSchema.CYCLE_SELECTOR_INDEX, Month.SONG_ID, Month.MONTH)
                .views(SongFigures.DOWNLOADS)
                .sharedCounters(GLOBAL_DOWNLOADS)
                .announces(SongEvents.SONG_ADDED, Song.SCHEMA, Song::songId, created(SongEvents.SongAdded::of))
                .announces(SongEvents.DOWNLOAD_REFUNDED, Download.SCHEMA, Download::downloadId,
                        SongEvents.DownloadRefunded::of)
                .resources(SongRoutes.RESOURCE)
                .dashboard(DASHBOARD)
                .demoSeed(SongsDemo::seed)
                .demoLoad(SongsDemo.Load::new)
                .workload(SongWorkload::new));
    }

    /** Its store over the table and the routes that use it. */
    @Override
    public void routes(Router router, RouteContext context) {
        new SongRoutes(context, new SongStore(context.dynamo(), context.table())).register(router);
    }

    @Override
    public List<Derivation> derivations(ShardSettings shards) {
        return List.of(new DownloadDerivation());
    }
}
