package io.tally.domains.catalogue;

/**
 * A catalogue item's entry in the CycleSelector index ({@link Catalogue#SELECTOR_ENTRY}), declared once: its document
 * is what the view {@link CatalogueFigures#SELECTORS} writes (an item without a title leaves the attribute out, and
 * the document write then removes a title it had before), and what {@code GET /selectors/{selector}} renders, the
 * title null when the item has none.
 */
public record SelectorEntry(String itemId, String title, long score) {
    static SelectorEntry of(CatalogueItem item) {
        return new SelectorEntry(item.itemId(), item.title(), item.score());
    }
}
