package example.bookmarks;

import static io.tally.core.domain.EntityResource.exists;

import io.tally.core.EntityType;
import io.tally.core.domain.DashboardSection;
import io.tally.core.domain.Declaration;
import io.tally.core.domain.DeclaredDomain;
import io.tally.core.domain.EntityResource;
import io.tally.core.events.EventType;
import io.tally.core.http.Access;
import io.tally.core.http.Fields;
import io.tally.core.users.Users;
import io.tally.core.workload.EntityWorkload;
import java.time.Duration;

/**
 * Users bookmark catalogue items: the bookmark at its path (its routes declared, Tally's to serve), and
 * {@code BookmarkChanged} on every change. The figures are views ({@link BookmarkFigures}), whose routes Tally serves.
 */
public final class Bookmarks extends DeclaredDomain {
    static final EntityType BOOKMARK = EntityType.base("Bookmark");
    static final EntityType CATALOGUE_ITEM = EntityType.base("CatalogueItem");
    static final EventType CHANGED = EventType.of("BookmarkChanged", BookmarkChanged.class);
    private static final String PATH = "/users/{userId}/bookmarks/{itemId}";

    public record BookmarkChanged(String eventId, String userId, String itemId, boolean bookmarked) {
    }

    public Bookmarks() {
        super(Declaration.of("bookmarks").requires("users", "catalogue").entityTypes(BOOKMARK)
                .views(BookmarkFigures.PER_ITEM, BookmarkFigures.PER_USER, BookmarkFigures.TOP)
                .dashboard(DashboardSection.ranking("bookmarks", "Most bookmarked, {month}", BookmarkFigures.TOP,
                        "#d65c8a"))
                .resources(EntityResource.at(PATH, Bookmark.SCHEMA)
                        .putOptionalBody(Access.owner("userId"), "Bookmark a catalogue item (201 created, 200 replaced)",
                                Fields.of(Bookmark.NOTE), (ids, body, old, now) -> new Bookmark(ids.get("userId"),
                                        ids.get("itemId"), body.get(Bookmark.NOTE),
                                        old.map(Bookmark::createdAt).orElse(now), now), exists("userId", Users.USER),
                                exists("itemId", CATALOGUE_ITEM))
                        .get(Access.ownerOrAdmin("userId"), "A bookmark")
                        .delete(Access.owner("userId"), "Delete a bookmark"))
                .announces(CHANGED, Bookmark.SCHEMA, Bookmarks::changed)
                .workload(context -> new EntityWorkload<>(context, "b", 20, Bookmark.SCHEMA, workload -> new Bookmark(
                        workload.user(), workload.pick("i1", "i2", "i3", "i4", "i5"),
                        workload.random().nextBoolean() ? "note " + workload.nextId("b") : null,
                        workload.now().minus(Duration.ofDays(workload.random().nextInt(90))), workload.now()))));
    }

    /** The detail of the event a create, replace ({@code bookmarked} true) or delete (false) announces. */
    private static BookmarkChanged changed(String eventId, Bookmark before, Bookmark after) {
        Bookmark bookmark = after != null ? after : before;
        return new BookmarkChanged(eventId, bookmark.userId(), bookmark.itemId(), after != null);
    }
}
