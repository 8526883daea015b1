package io.tally.core.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.ItemSchema;
import io.tally.core.derive.CounterRef;
import io.tally.core.derive.Derivation;
import io.tally.core.derive.IntendedChanges;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * Random changes of a few entities through a derivation: after each, the figures its deltas add up to must equal a
 * model computed from the entities' current states alone (the definitions, not the deltas).
 */
final class RandomChanges {
    private RandomChanges() {
    }

    /**
     * @param next  the entity's next state from the dice, or null for a delete
     * @param model the figures of these current states, zeros left out
     */
    static <T extends Record> void check(Derivation derivation, ItemSchema<T> schema, long seed, int steps, int ids,
                                         Function<Random, T> next, Function<Collection<T>, Map<CounterRef, Long>> model) {
        Random random = new Random(seed);
        Map<String, T> current = new HashMap<>();
        Map<CounterRef, Long> figures = new HashMap<>();
        for (int step = 0; step < steps; step++) {
            String id = "e" + random.nextInt(ids);
            T before = current.get(id);
            T after = random.nextInt(5) == 0 ? null : next.apply(random);
            IntendedChanges changes = derivation.derive("r" + step, before == null ? null : schema.toItem(before),
                    after == null ? null : schema.toItem(after));
            assertThat(changes.problems()).isEmpty();
            changes.counterDeltas().forEach((counter, delta) -> figures.merge(counter, delta, Long::sum));
            figures.values().removeIf(value -> value == 0);
            if (after == null) {
                current.remove(id);
            } else {
                current.put(id, after);
            }
            assertThat(figures).as("after step %d", step).isEqualTo(model.apply(current.values()));
        }
    }
}
