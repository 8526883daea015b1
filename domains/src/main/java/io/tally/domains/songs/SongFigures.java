package io.tally.domains.songs;

import io.tally.core.view.SharedCounts;

/**
 * The songs' count in the shared items, declared as a view (in a class of its own: it reads the downloads' schema): the
 * global {@code downloads}, of the downloads not refunded.
 */
final class SongFigures {
    static final SharedCounts<Download> DOWNLOADS = SharedCounts.over(Download.SCHEMA)
            .global(Songs.GLOBAL_DOWNLOADS, Download::counts)
            .build();

    private SongFigures() {
    }
}
