package io.tally.core.view;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.derive.Derivation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A domain's views, compiled: their derived types and their derivations, one per entity type they count. */
public final class Views {
    private Views() {
    }

    /** The derived types the views keep their figures in, in the views' order. */
    public static List<DerivedType> types(List<View<?>> views) {
        return views.stream().flatMap(view -> view.types().stream()).toList();
    }

    /**
     * The views, each counter view followed by its parts ({@link CounterView#parts}): every view that counts an entity
     * type.
     */
    public static List<View<?>> expanded(List<View<?>> views) {
        List<View<?>> all = new ArrayList<>();
        for (View<?> view : views) {
            all.add(view);
            if (view instanceof CounterView<?, ?> counted) {
                all.addAll(counted.parts());
            }
        }
        return all;
    }

    /**
     * One derivation per entity type the views count: an entity's contribution is the sum of its contributions to
     * each view. A domain's own derivation of the same type combines with it ({@code CombinedDerivation}).
     */
    public static List<Derivation> derivations(List<View<?>> views) {
        Map<EntityType, List<View<?>>> bySource = new LinkedHashMap<>();
        expanded(views).forEach(view -> bySource.computeIfAbsent(view.source(), type -> new ArrayList<>()).add(view));
        List<Derivation> derivations = new ArrayList<>();
        bySource.values().forEach(same -> derivations.add(derivation(same)));
        return derivations;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Derivation derivation(List<View<?>> views) {
        View first = views.get(0);
        if (views.stream().filter(ProjectionView.class::isInstance).count() > 1) {
            throw new IllegalArgumentException("one projection of " + first.source().attributeValue()
                    + " at the most (its documents carry the entity's revision): " + views);
        }
        for (View<?> view : views) {
            if (view.schema() != first.schema()) {
                throw new IllegalArgumentException("the views of " + first.source().attributeValue()
                        + " read it with different schemas: " + first + ", " + view);
            }
        }
        return new ViewDerivation(first.schema(), (List) views);
    }
}
