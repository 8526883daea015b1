package io.tally.core.view;

import io.tally.core.DerivedType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The parts of a {@link CounterView} fed by several entity types ({@link CounterViewBuilder#alsoFrom}): each part
 * counts its own entity type into the view's items, grouped by the same fields (and bucket), filling some of the
 * answer's figures; the view's derived type holds every part's counters and families, and its route reads them all.
 * Checked when the view is built, so that a part that would write other items than the view reads, or read another
 * part's counters as its own, fails the declaration.
 */
final class CounterViewParts {
    private CounterViewParts() {
    }

    /** Every figure the view and its parts store: counter names, in declaration order. */
    static Set<String> counters(CounterViewBuilder<?, ?> view) {
        Set<String> all = new LinkedHashSet<>(view.counters.keySet());
        view.parts.forEach(part -> all.addAll(part.counters.keySet()));
        return all;
    }

    /** Every family the view and its parts count, by the answer's component that holds it. */
    static Map<String, CounterFamily<?>> families(CounterViewBuilder<?, ?> view) {
        Map<String, CounterFamily<?>> all = new LinkedHashMap<>(view.families);
        view.parts.forEach(part -> part.families.forEach(all::putIfAbsent));
        return all;
    }

    /**
     * Checks each part against the view: the same groups in the same order, the same bucket, figures of its own to
     * count, no key, name, route, average or sharing of its own (the view's are), and a family prefix only for the
     * component that prefix stands for in the view or another part.
     */
    static void check(CounterViewBuilder<?, ?> view) {
        Map<String, String> prefixes = new LinkedHashMap<>();
        Map<String, String> components = new LinkedHashMap<>();
        view.families.forEach((component, family) -> {
            prefixes.put(family.prefix(), component);
            components.put(component, family.prefix());
        });
        for (CounterViewBuilder<?, ?> part : view.parts) {
            String named = view.answer.getSimpleName() + "'s part counting "
                    + part.source.entityType().attributeValue();
            if (!part.groups.equals(view.groups)) {
                throw new IllegalStateException(named + " groups by " + part.groups + ": a part groups by the view's"
                        + " fields, in its order, " + view.groups);
            }
            if (part.bucket != view.bucket || !Objects.equals(part.bucketComponent, view.bucketComponent)) {
                throw new IllegalStateException(named + " must count per the view's bucket: " + view.bucket);
            }
            if (part.counters.isEmpty() && part.families.isEmpty()) {
                throw new IllegalStateException(named + " counts or sums nothing");
            }
            if (part.keyPattern != null || part.read != null || part.average != null || part.shared
                    || !part.parts.isEmpty() || !part.name.equals(view.answer.getSimpleName())) {
                throw new IllegalStateException(named + " declares what only the view does (key, name, read route,"
                        + " average, shared, parts): the view's hold for its parts");
            }
            part.families.forEach((component, family) -> {
                String owner = prefixes.putIfAbsent(family.prefix(), component);
                String prefix = components.putIfAbsent(component, family.prefix());
                // One prefix a component, one component a prefix: the view reads each family by its component.
                if (owner != null && !owner.equals(component) || prefix != null && !prefix.equals(family.prefix())) {
                    throw new IllegalStateException(named + " stores " + component + " as " + family.prefix()
                            + ", which the view stores as " + (owner != null && !owner.equals(component) ? owner
                            : component + " under " + prefix));
                }
            });
        }
    }

    /** The parts as views of their own that count into {@code type}, the view's, and read nothing. */
    static List<CounterView<?, ?>> build(CounterViewBuilder<?, ?> view, DerivedType type) {
        List<CounterView<?, ?>> built = new ArrayList<>();
        for (CounterViewBuilder<?, ?> part : view.parts) {
            part.given = type;
            built.add(new CounterView<>(part));
        }
        return List.copyOf(built);
    }
}
