package io.tally.testkit;

import io.tally.core.ItemSchema;
import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.derive.IntendedChanges;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The test kit for a domain's figures (views and hand-written derivations alike): random creates, replaces and deletes
 * of one entity type go through the registry's derivations, exactly as the engine and {@code verify} derive them, and
 * after every change the counters their deltas add up to must equal a model the test writes from the domain's
 * definitions over the entities that exist, independent of the code it checks.
 *
 * <pre>{@code
 * FigureCheck.of(DomainRegistry.load(), Bookmark.SCHEMA)
 *         .states(random -> new Bookmark("u" + random.nextInt(6), "i" + random.nextInt(4), ...))
 *         .model(bookmarks -> ...)   // "<pk> <sk> <attribute>" -> figure, zeros left out
 *         .run(11, 2_000);
 * }</pre>
 *
 * <p>An entity's identity is its key: a new state of the same key replaces it, and one change in {@code deletes} (one
 * in four by default) deletes an existing entity instead. A change that derives a problem fails the check, and so does
 * a run in which no figure was ever expected (it would check nothing). Counters only: documents are not compared.
 *
 * @param <T> the entity
 */
public final class FigureCheck<T extends Record> {
    private final Derivations derivations;
    private final ItemSchema<T> schema;
    private Function<Random, T> states;
    private Function<Collection<T>, Map<String, Long>> model;
    private int deletes = 4;
    private StepCheck<T> each = (before, after, changes) -> { };

    /** What a test may also check of each change: its two states (null for none) and what it derived. */
    @FunctionalInterface
    public interface StepCheck<T> {
        void check(T before, T after, IntendedChanges changes);
    }

    private FigureCheck(Derivations derivations, ItemSchema<T> schema) {
        this.derivations = Objects.requireNonNull(derivations, "derivations");
        this.schema = Objects.requireNonNull(schema, "schema");
    }

    /** The entities {@code schema} reads, through the derivations of every domain of the registry. */
    public static <T extends Record> FigureCheck<T> of(DomainRegistry registry, ItemSchema<T> schema) {
        return new FigureCheck<>(registry.derivations(ShardSettings.DEFAULTS), schema);
    }

    /** The next state of an entity, drawn from the dice (its key says which entity it is). */
    public FigureCheck<T> states(Function<Random, T> next) {
        this.states = Objects.requireNonNull(next, "next");
        return this;
    }

    /** One change in {@code oneIn} deletes an entity instead of writing one. */
    public FigureCheck<T> deletes(int oneIn) {
        if (oneIn < 2) {
            throw new IllegalArgumentException("one change in at least 2 deletes: " + oneIn);
        }
        this.deletes = oneIn;
        return this;
    }

    /**
     * The figures of the entities that exist, from the domain's definitions: each counter by {@code "<pk> <sk>
     * <attribute>"} of the item it is kept in, zeros left out (a shared item's by its base item: the engine, not the
     * derivation, places a change in the shard's partial).
     */
    public FigureCheck<T> model(Function<Collection<T>, Map<String, Long>> figures) {
        this.model = Objects.requireNonNull(figures, "figures");
        return this;
    }

    /** A check of each change besides the figures (its events, say). */
    public FigureCheck<T> eachChange(StepCheck<T> check) {
        this.each = Objects.requireNonNull(check, "check");
        return this;
    }

    /**
     * Runs {@code steps} changes from {@code seed}.
     *
     * @throws AssertionError at the first change that derives a problem, or after which the figures differ from the
     *                        model: the step, the change and both figures
     */
    public void run(long seed, int steps) {
        if (states == null || model == null) {
            throw new IllegalStateException("a figure check needs the entities' states and the model");
        }
        if (steps < 1) {
            throw new IllegalArgumentException("a figure check makes at least one change: " + steps);
        }
        boolean counted = false;
        Random random = new Random(seed);
        Map<Key, T> existing = new LinkedHashMap<>();
        Map<String, Long> derived = new TreeMap<>();
        for (int step = 0; step < steps; step++) {
            T drawn = states.apply(random);
            Key key = schema.key(drawn);
            boolean delete = random.nextInt(deletes) == 0 && !existing.isEmpty();
            if (delete) {
                key = existing.keySet().stream().skip(random.nextInt(existing.size())).findFirst().orElseThrow();
            }
            T before = existing.get(key);
            T after = delete ? null : drawn;
            IntendedChanges changes = derivations.derive(schema.entityType(), "step-" + step,
                    before == null ? null : schema.toItem(before), after == null ? null : schema.toItem(after));
            if (!changes.problems().isEmpty()) {
                throw new AssertionError("step " + step + " (" + before + " -> " + after + ") derived problems: "
                        + changes.problems());
            }
            each.check(before, after, changes);
            changes.counterDeltas().forEach((counter, delta) -> derived.merge(counter.key().pk() + " "
                    + counter.key().sk() + " " + counter.attribute(), delta, Long::sum));
            derived.values().removeIf(value -> value == 0);
            if (after == null) {
                existing.remove(key);
            } else {
                existing.put(key, after);
            }
            Map<String, Long> expected = new TreeMap<>(model.apply(java.util.List.copyOf(existing.values())));
            expected.values().removeIf(value -> value == 0);
            counted |= !expected.isEmpty();
            if (!expected.equals(derived)) {
                Map<String, Long> differences = new HashMap<>();
                expected.forEach((name, value) -> {
                    if (!value.equals(derived.get(name))) {
                        differences.put(name, value);
                    }
                });
                derived.forEach((name, value) -> {
                    if (!expected.containsKey(name)) {
                        differences.put(name, 0L);
                    }
                });
                throw new AssertionError("step " + step + " (" + before + " -> " + after + "): the model's figures"
                        + " where the derivations' differ: " + new TreeMap<>(differences) + "; derived: " + derived);
            }
        }
        if (!counted) {
            // A check that never saw a figure checks nothing: no derivation of the type, or a model of nothing.
            throw new AssertionError(steps + " changes of " + schema.entityType().attributeValue() + " and no figure:"
                    + " the check saw nothing to compare");
        }
    }
}
