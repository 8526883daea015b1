package io.tally.domains.favs;

import io.tally.core.Key;
import io.tally.core.workload.AbstractWorkloadPart;
import io.tally.core.workload.WorkloadContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The favourites part of the test kit's workload (seed 004): tags (with their name reservations) created, renamed and
 * deleted, favourites collected and un-collected, links added and removed, written as the writer service writes them.
 * Deletes of tags and favourites leave their links for the stream processor's cascades, and freed ids come back, so
 * that a link of the new favourite or tag may overwrite a stale one at the same key before the cascade reaches it.
 * Titles come from a small vocabulary, so that search terms are shared.
 *
 * <p>The benchmark's shape ({@link #unlinkingFirst}) differs in two ways: the writes remove a favourite's or a tag's
 * links themselves before removing it, as the stream processor's cascade would have (the benchmark records its stream
 * with no processor running, so the link removals the cascades would add to the stream are written instead), and the
 * tag of a new link is picked with the workload's skew, so that a few tags take most links; and it is tag-heavy: half
 * the steps link a favourite to a tag, besides the links of the usual mix.
 */
public final class FavWorkload extends AbstractWorkloadPart {
    private static final List<String> USERS = List.of("fu1", "fu2");
    private static final List<String> WORDS = List.of("go", "pie", "sun", "trip", "map", "pizza");

    private final Map<Key, Tag> tags = new LinkedHashMap<>();
    private final Map<Key, Favourite> favourites = new LinkedHashMap<>();
    private final Map<Key, FavouriteTag> links = new LinkedHashMap<>();
    private final List<String> freedTags = new ArrayList<>();
    private final List<String> freedFavourites = new ArrayList<>();
    /** The benchmark's shape: links removed before their favourite or tag, link tags picked with the skew. */
    private final boolean unlinkFirst;

    FavWorkload(WorkloadContext context) {
        this(context, false);
    }

    private FavWorkload(WorkloadContext context, boolean unlinkFirst) {
        super(context, "f", 35, false);
        this.unlinkFirst = unlinkFirst;
    }

    /**
     * The benchmark's shape: links removed by the writes before their favourite or tag, and link tags picked with the
     * workload's skew (towards the oldest tags).
     */
    public static FavWorkload unlinkingFirst(WorkloadContext context) {
        return new FavWorkload(context, true);
    }

    @Override
    public void step() {
        Instant now = now();
        if (unlinkFirst && !tags.isEmpty() && !favourites.isEmpty() && random.nextBoolean()) {
            link(now); // tag-heavy: half the steps link a favourite to a tag, besides the usual mix
            return;
        }
        int roll = random.nextInt(100);
        if (tags.isEmpty() || roll < 12) {
            createTag(now);
        } else if (favourites.isEmpty() || roll < 35) {
            collect(now);
        } else if (roll < 65) {
            link(now);
        } else if (roll < 73) {
            unlink();
        } else if (roll < 80) {
            renameTag();
        } else if (roll < 90) {
            uncollect();
        } else {
            deleteTag();
        }
    }

    private String title() {
        // Mostly one short word: every term is a derived write of the collect's record, and the fault test retries a
        // record until all of its writes succeed in one delivery.
        StringBuilder title = new StringBuilder(pick(WORDS));
        if (random.nextInt(4) == 0) {
            title.append(random.nextBoolean() ? " " : ", ").append(pick(WORDS));
        }
        return random.nextBoolean() ? title.toString() : title.substring(0, 1).toUpperCase() + title.substring(1);
    }

    private void createTag(Instant now) {
        String userId = pick(USERS);
        String name = "Tag " + id();
        Tag tag = new Tag(userId, reuseOr(freedTags), name, now, now, id());
        if (tags.containsKey(tag.key())) {
            return;
        }
        tags.put(tag.key(), tag);
        put(new TagName(userId, name, tag.tagId()).toItem());
        put(tag.toItem());
    }

    private void renameTag() {
        Tag tag = pick(new ArrayList<>(tags.values()));
        Tag renamed = tag.renamed("Renamed " + id());
        tags.put(tag.key(), renamed);
        put(renamed.toItem());
        delete(new TagName(tag.userId(), tag.name(), tag.tagId()).key());
        put(new TagName(tag.userId(), renamed.name(), tag.tagId()).toItem());
    }

    private void deleteTag() {
        Tag tag = pick(new ArrayList<>(tags.values()));
        tags.remove(tag.key());
        freedTags.add(tag.tagId());
        removeLinks(link -> link.userId().equals(tag.userId()) && link.tagId().equals(tag.tagId()));
        delete(tag.key());
        delete(new TagName(tag.userId(), tag.name(), tag.tagId()).key());
    }

    private void collect(Instant now) {
        FavouriteType type = FavouriteType.values()[random.nextInt(FavouriteType.values().length)];
        Favourite favourite = new Favourite(pick(USERS), reuseOr(freedFavourites), type, title(),
                random.nextBoolean() ? "https://example.com/" + id() : null, null,
                random.nextBoolean() ? "c1" : null, now, id());
        if (favourites.containsKey(favourite.key())) {
            return;
        }
        favourites.put(favourite.key(), favourite);
        put(favourite.toItem());
    }

    private void uncollect() {
        Favourite favourite = pick(new ArrayList<>(favourites.values()));
        favourites.remove(favourite.key());
        freedFavourites.add(favourite.favouriteId());
        removeLinks(link -> link.userId().equals(favourite.userId())
                && link.favouriteId().equals(favourite.favouriteId()));
        delete(favourite.key());
    }

    /** Forgets the links a removal takes with it; in the benchmark's shape, deletes them first. */
    private void removeLinks(java.util.function.Predicate<FavouriteTag> removed) {
        List<Key> gone = links.values().stream().filter(removed).map(FavouriteTag::key).toList();
        gone.forEach(links::remove);
        if (unlinkFirst) {
            gone.forEach(this::delete);
        }
    }

    private void link(Instant now) {
        Favourite favourite = pick(new ArrayList<>(favourites.values()));
        List<Tag> own = tags.values().stream().filter(tag -> tag.userId().equals(favourite.userId())).toList();
        if (own.isEmpty()) {
            return;
        }
        Tag tag = unlinkFirst ? own.get(context.skewed(own.size())) : pick(own);
        FavouriteTag link = new FavouriteTag(favourite, tag.tagId(), now, tag.incarnation());
        if (link.sameAs(links.get(link.key()))) {
            return;
        }
        links.put(link.key(), link);
        put(link.toItem());
    }

    private void unlink() {
        if (links.isEmpty()) {
            return;
        }
        Key key = pick(new ArrayList<>(links.keySet()));
        links.remove(key);
        delete(key);
    }
}
