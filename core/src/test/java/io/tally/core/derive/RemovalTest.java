package io.tally.core.derive;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.EntityType;
import io.tally.core.ItemSchema;
import io.tally.core.Key;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** When a declared removal's cascade runs, and what an owned entity names, checked by hand against the states. */
class RemovalTest {
    record Shelf(String shelfId, String incarnation) {
        static final EntityType TYPE = EntityType.base("RemovalTestShelf");
        static final ItemSchema<Shelf> SCHEMA = ItemSchema.of(Shelf.class, TYPE,
                shelf -> new Key("SHELF#" + shelf.shelfId(), "#SHELF#")).build();
    }

    record Book(String shelfId, String bookId, String shelfIncarnation) {
        static final EntityType TYPE = EntityType.base("RemovalTestBook");
        static final ItemSchema<Book> SCHEMA = ItemSchema.of(Book.class, TYPE,
                book -> new Key("SHELF#" + book.shelfId(), "BOOK#" + book.bookId())).build();
    }

    /** The books of one incarnation of a shelf (never run here: only named). */
    record ShelfBooks(String shelfId, String incarnation) implements Cascade {
        @Override
        public int removeWith(ConditionalRemovals removals) {
            throw new UnsupportedOperationException("named, not run");
        }
    }

    private static final Shelf SHELF = new Shelf("s1", "i1");
    private static final Shelf SHELF_RENAMED = new Shelf("s1", "i1");
    private static final Shelf SHELF_AGAIN = new Shelf("s1", "i2");
    private static final Book BOOK = new Book("s1", "b1", "i1");

    private static Removal<Shelf, Book> removal(boolean byIncarnation) {
        return new Removal<>(Shelf.SCHEMA, byIncarnation ? (before, after) -> before.incarnation()
                .equals(after.incarnation()) : (before, after) -> true,
                shelf -> new ShelfBooks(shelf.shelfId(), shelf.incarnation()), Book.SCHEMA,
                book -> new ShelfBooks(book.shelfId(), book.shelfIncarnation()));
    }

    private static List<Cascade> cascades(Derivation owner, Shelf before, Shelf after) {
        return owner.derive("e1", before == null ? null : Shelf.SCHEMA.toItem(before),
                after == null ? null : Shelf.SCHEMA.toItem(after)).cascades();
    }

    @Test
    void theOwnersRemoval_namesItsCascade_aCreateOrAChangeNone() {
        Derivation owner = removal(false).derivations().get(0);
        assertThat(owner.entityType()).isEqualTo(Shelf.TYPE);
        assertThat(cascades(owner, SHELF, null)).containsExactly(new ShelfBooks("s1", "i1"));
        assertThat(cascades(owner, null, SHELF)).isEmpty();
        assertThat(cascades(owner, SHELF, SHELF_AGAIN)).isEmpty();
    }

    @Test
    void withSame_aReplacementByAnotherIncarnationRunsTheCascadeOfTheOneGone() {
        Derivation owner = removal(true).derivations().get(0);
        assertThat(cascades(owner, SHELF, SHELF_AGAIN)).containsExactly(new ShelfBooks("s1", "i1"));
        assertThat(cascades(owner, SHELF, SHELF_RENAMED)).isEmpty();
        assertThat(cascades(owner, SHELF, null)).containsExactly(new ShelfBooks("s1", "i1"));
    }

    @Test
    void anOwnedEntity_namesTheCascadeThatWouldRemoveIt_andContributesNothing() {
        List<Derivation> derivations = removal(false).derivations();
        Derivation owned = derivations.get(1);
        assertThat(owned.entityType()).isEqualTo(Book.TYPE);
        CascadeLinks links = owned.cascadeLinks(Book.SCHEMA.toItem(BOOK));
        assertThat(links.removedBy()).containsExactly(new ShelfBooks("s1", "i1"));
        assertThat(links.removes()).isEmpty();
        IntendedChanges removed = owned.derive("e1", Book.SCHEMA.toItem(BOOK), null);
        assertThat(removed.counterDeltas()).isEmpty();
        assertThat(removed.documents()).isEmpty();
        assertThat(removed.cascades()).isEmpty();
        assertThat(derivations.get(0).cascadeLinks(Shelf.SCHEMA.toItem(SHELF)).removes())
                .containsExactly(new ShelfBooks("s1", "i1"));
    }

    @Test
    void anUnreadableOwner_isAProblemAndRemovesNothing() {
        Map<String, AttributeValue> garbled = new java.util.HashMap<>(Shelf.SCHEMA.toItem(SHELF));
        garbled.remove("incarnation");
        IntendedChanges changes = removal(false).derivations().get(0).derive("e1", garbled, null);
        assertThat(changes.problems()).isNotEmpty();
        assertThat(changes.cascades()).isEmpty();
    }
}
