package example.bookmarks;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.tally.core.EntityType;
import io.tally.core.domain.DashboardSection;
import io.tally.core.domain.Declaration;
import io.tally.core.domain.DeclaredDomain;
import io.tally.core.domain.EntityTable;
import io.tally.core.domain.RouteContext;
import io.tally.core.events.EventType;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.Router;
import io.tally.core.users.Users;
import io.tally.core.workload.EntityWorkload;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * Users bookmark catalogue items: the write routes, and {@code BookmarkChanged} on every change. The figures are views
 * ({@link BookmarkFigures}), whose routes Tally serves.
 */
public final class Bookmarks extends DeclaredDomain {
    static final EntityType BOOKMARK = EntityType.base("Bookmark");
    static final EntityType CATALOGUE_ITEM = EntityType.base("CatalogueItem");
    static final EventType CHANGED = EventType.of("BookmarkChanged", BookmarkChanged.class);
    private static final String PATH = "/users/{userId}/bookmarks/{itemId}";
    private static final Set<String> FIELDS = Set.of("note");

    @JsonPropertyOrder({"eventId", "userId", "itemId", "bookmarked"})
    public record BookmarkChanged(String eventId, String userId, String itemId, boolean bookmarked) {
    }

    public Bookmarks() {
        super(Declaration.of("bookmarks").requires("users", "catalogue").entityTypes(BOOKMARK)
                .views(BookmarkFigures.PER_ITEM, BookmarkFigures.PER_USER, BookmarkFigures.TOP)
                .dashboard(DashboardSection.ranking("bookmarks", "Most bookmarked, {month}", BookmarkFigures.TOP,
                        "#d65c8a"))
                .announces(CHANGED, Bookmark.SCHEMA, bookmark -> bookmark.userId() + "/" + bookmark.itemId(),
                        Bookmarks::changed)
                .workload(context -> new EntityWorkload<>(context, "b", 20, Bookmark.SCHEMA, workload -> new Bookmark(
                        workload.user(), workload.pick(List.of("i1", "i2", "i3", "i4", "i5")),
                        workload.random().nextBoolean() ? "note " + workload.nextId("b") : null,
                        workload.now().minus(Duration.ofDays(workload.random().nextInt(90))), workload.now()))));
    }

    @Override
    public void routes(Router router, RouteContext context) {
        EntityTable<Bookmark> table = EntityTable.of(context, Bookmark.SCHEMA);
        router.add("PUT", PATH, Access.owner("userId"), request -> put(context, table, request))
                    .summary("Bookmark a catalogue item (201 created, 200 replaced)").optionalBody(FIELDS)
                    .returns(201, Bookmark.class)
                .add("GET", PATH, Access.ownerOrAdmin("userId"), request -> ApiResponse.ok(table.get(key(request))
                        .orElseThrow(() -> notFound(request)))).summary("A bookmark").returns(200, Bookmark.class)
                .add("DELETE", PATH, Access.owner("userId"), request -> ApiResponse.ok(table.delete(key(request))
                        .orElseThrow(() -> notFound(request)))).summary("Delete a bookmark")
                    .returns(200, Bookmark.class);
    }

    private static ApiResponse put(RouteContext context, EntityTable<Bookmark> table, ApiRequest request) {
        String userId = request.id("userId");
        String itemId = request.id("itemId");
        String note = Body.parseOptional(request.body(), FIELDS).optionalLine("note", 500);
        EntityTable.Written<Bookmark> written = table.put(key(request), old -> {
            Instant now = context.now();
            return new Bookmark(userId, itemId, note, old.map(Bookmark::createdAt).orElse(now), now);
        }, new EntityTable.Requires(Users.USER, userId, "user"), new EntityTable.Requires(CATALOGUE_ITEM, itemId,
                "catalogue item"));
        return written.created() ? ApiResponse.created(written.after(), "/users/" + userId + "/bookmarks/" + itemId)
                : ApiResponse.ok(written.after());
    }

    /** The detail of the event a create, replace ({@code bookmarked} true) or delete (false) announces. */
    private static BookmarkChanged changed(String eventId, Bookmark before, Bookmark after) {
        Bookmark bookmark = after != null ? after : before;
        return new BookmarkChanged(eventId, bookmark.userId(), bookmark.itemId(), after != null);
    }

    private static io.tally.core.Key key(ApiRequest request) {
        return Bookmark.key(request.id("userId"), request.id("itemId"));
    }

    private static ApiException notFound(ApiRequest request) {
        return ApiException.notFound("user '" + request.id("userId") + "' has no bookmark of '" + request.id("itemId")
                + "'");
    }
}
