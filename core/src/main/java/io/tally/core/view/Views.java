package io.tally.core.view;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.ShardSettings;
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
     * each view, each view a part of its own ({@code CombinedDerivation}: one that cannot count a state reports a
     * problem, and the others count it). A domain's own derivation of the same type combines with it likewise.
     */
    public static List<Derivation> derivations(List<View<?>> views, ShardSettings shards) {
        Map<EntityType, List<View<?>>> bySource = new LinkedHashMap<>();
        expanded(views).forEach(view -> bySource.computeIfAbsent(view.source(), type -> new ArrayList<>()).add(view));
        List<Derivation> derivations = new ArrayList<>();
        bySource.values().forEach(same -> derivations.add(derivation(same, shards)));
        return derivations;
    }

    /** The views' derivations at the default shard counts ({@link ShardSettings#DEFAULTS}). */
    public static List<Derivation> derivations(List<View<?>> views) {
        return derivations(views, ShardSettings.DEFAULTS);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Derivation derivation(List<View<?>> views, ShardSettings shards) {
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
        // One part a view, joined: a view that cannot count an entity (a group that is no id) is a problem of its own,
        // and the other views of the type still count it, as the domain's own derivation does.
        List<Derivation> parts = new ArrayList<>();
        for (View view : views) {
            parts.add(new ViewDerivation(first.schema(), List.of(view), shards));
        }
        return io.tally.core.derive.CombinedDerivation.withViews(List.of(), parts).get(0);
    }
}
