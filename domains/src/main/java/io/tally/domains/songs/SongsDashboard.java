package io.tally.domains.songs;

import static io.tally.core.domain.DashboardSection.Figure.tile;

import io.tally.core.domain.DashboardSection;
import io.tally.core.domain.DashboardSection.Rows;
import java.util.List;

/** The songs' part of the dashboard: their total, the month's chart, and all songs' downloads over the last 30 days. */
final class SongsDashboard {
    static final List<DashboardSection> SECTIONS = List.of(
            DashboardSection.totals("/stats/global", tile("Downloads", "global.downloads", "downloads")),
            DashboardSection.bars("top-songs", "Top songs, {month}", "/charts/downloads/{month}?limit=10",
                    Rows.of("items", "downloads", "{title}", "{songId}").figure("songs.top.{songId}"), "#8a5cd6"),
            DashboardSection.days("downloads", "Downloads per day, last 30 days",
                    "/stats/downloads/days?from={from}&to={to}", Rows.of("days", "downloads", "{day}"), "#13a383"));

    private SongsDashboard() {
    }
}
