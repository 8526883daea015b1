package io.tally.core.workload;

import io.tally.core.ItemSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * A workload part of one entity type: each step writes a new state of an entity (three times in four; a state whose
 * key one written before holds replaces it) or deletes one written, at random. What a state holds is the domain's
 * {@code next}, from the workload's random source, clock, users and ids ({@link WorkloadContext}).
 *
 * <pre>{@code
 * .workload(context -> new EntityWorkload<>(context, "r", 20, Review.SCHEMA,
 *         workload -> new Review(workload.user(), workload.pick(ITEMS), 1 + workload.random().nextInt(5), null,
 *                 workload.now())))
 * }</pre>
 *
 * @param <T> the entity
 */
public final class EntityWorkload<T extends Record> extends AbstractWorkloadPart {
    private final ItemSchema<T> schema;
    private final Function<WorkloadContext, T> next;
    private final List<T> written = new ArrayList<>();

    /**
     * A part of the default mix.
     *
     * @param idPrefix the prefix of the part's ids
     * @param weight   its share of the workload's steps ({@link WorkloadPart#weight})
     */
    public EntityWorkload(WorkloadContext context, String idPrefix, int weight, ItemSchema<T> schema,
                          Function<WorkloadContext, T> next) {
        this(context, idPrefix, weight, true, schema, next);
    }

    /** @param byDefault whether it is in the default mix ({@link WorkloadPart#byDefault}), else only when asked for */
    public EntityWorkload(WorkloadContext context, String idPrefix, int weight, boolean byDefault,
                          ItemSchema<T> schema, Function<WorkloadContext, T> next) {
        super(context, idPrefix, weight, byDefault);
        this.schema = Objects.requireNonNull(schema, "schema");
        this.next = Objects.requireNonNull(next, "next");
    }

    @Override
    public void step() {
        if (written.isEmpty() || random.nextInt(4) > 0) {
            T state = next.apply(context);
            written.removeIf(old -> schema.key(old).equals(schema.key(state)));
            written.add(state);
            put(schema.toItem(state));
        } else {
            delete(schema.key(written.remove(random.nextInt(written.size()))));
        }
    }
}
