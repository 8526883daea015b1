package io.tally.testkit;

import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.domain.Domain;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.users.UsersWorkload;
import io.tally.core.workload.Write;
import io.tally.core.workload.WorkloadContext;
import io.tally.core.workload.WorkloadPart;
import io.tally.core.workload.Zipf;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A random but valid sequence of base-item writes, built from the domains' own parts ({@link Domain#workload}): each
 * step is one part's, picked by the parts' weights, plus an occasional poison item. The same seed gives the same
 * writes. Users and other picks can be skewed with a Zipf distribution, as hot keys are.
 *
 * <p>The parts a domain takes by default ({@link WorkloadPart#byDefault}) are in; {@link #with} adds others by domain
 * name. The writes go straight to a table (the tests), or to a sink: {@link #writes(long, double, int)} collects them,
 * so that the benchmark can send them in parallel (per-item order kept) and pace them.
 */
public final class Workload {
    private final DomainRegistry registry;
    private final Consumer<Write> out;
    private final Random random;
    private final Zipf zipf;
    private final boolean poison;
    private final Context context = new Context();
    private final Map<String, WorkloadPart> parts = new LinkedHashMap<>();
    private final Poison poisons;
    /** The part whose step runs, whose writes the poison may overwrite (null: none, e.g. users made on demand). */
    private WorkloadPart current;
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");
    private int sequence;
    private long writes;

    /**
     * The domains on the class path, writing straight to a table.
     *
     * @param skew   0 for uniform picks, about 1.1 for a Zipf skew over users and what the parts pick with it
     * @param poison whether to write an unreadable item now and then
     */
    public Workload(DynamoDbClient dynamo, String table, long seed, double skew, boolean poison) {
        this(write -> send(dynamo, table, write), seed, skew, poison);
    }

    /** The domains on the class path; {@code out} receives each write, in order. */
    public Workload(Consumer<Write> out, long seed, double skew, boolean poison) {
        this(DomainRegistry.load(), out, seed, skew, poison);
    }

    /** These domains' parts; {@code out} receives each write, in order. */
    public Workload(DomainRegistry registry, Consumer<Write> out, long seed, double skew, boolean poison) {
        this.registry = registry;
        this.out = out;
        this.random = new Random(seed);
        this.zipf = new Zipf(random, skew);
        this.poison = poison;
        this.poisons = new Poison(context, registry.derivations(ShardSettings.DEFAULTS), item -> {
            out.accept(Write.put(item));
            writes++;
        });
        for (Domain domain : registry.domains()) {
            domain.workload(context).filter(WorkloadPart::byDefault).ifPresent(part -> parts.put(domain.name(), part));
        }
    }

    /**
     * Adds the parts of these domains (by name) to the mix, e.g. {@code with("orgs")}.
     *
     * @throws IllegalArgumentException for a domain the registry does not have, or one without a part
     */
    public Workload with(String... domains) {
        for (String name : domains) {
            if (!parts.containsKey(name)) {
                parts.put(name, part(name));
            }
        }
        return this;
    }

    /** The users written so far, oldest first. */
    public List<String> users() {
        return List.copyOf(context.users);
    }

    /** Base-item writes done so far (each is one stream record, transactions one per item written). */
    public long writes() {
        return writes;
    }

    /** At least {@code count} writes of the default parts (the last step may add more), without poison. */
    public static List<Write> writes(long seed, double skew, int count) {
        return collect(count, sink -> new Workload(sink, seed, skew, false), Workload::step);
    }

    /** At least {@code count} writes of one domain's part alone (its users made on demand), without poison. */
    public static List<Write> writes(long seed, double skew, int count, String domain) {
        return collect(count, sink -> new Workload(sink, seed, skew, false).with(domain), w -> w.run(domain, 1));
    }

    /**
     * At least {@code count} writes of every domain on the class path that has a workload part, those in the default
     * mix and those only asked for (orgs, ...), picked by their weights, without poison.
     */
    public static List<Write> writesOfEveryDomain(long seed, double skew, int count) {
        return collect(count, sink -> {
            Workload workload = new Workload(sink, seed, skew, false);
            for (Domain domain : workload.registry.domains()) {
                if (domain.workload(workload.context).isPresent()) {
                    workload.with(domain.name());
                }
            }
            return workload;
        }, Workload::step);
    }

    /**
     * At least {@code count} writes of a part made here over the workload's context (a domain's part in another shape,
     * say the benchmark's tag-heavy favourites), without poison.
     */
    public static List<Write> writes(long seed, double skew, int count, Function<WorkloadContext, WorkloadPart> part) {
        return collect(count, sink -> new Workload(sink, seed, skew, false), workload -> {
            WorkloadPart made = workload.parts.computeIfAbsent("custom", name -> part.apply(workload.context));
            workload.tick();
            workload.stepOf(made);
        });
    }

    private static List<Write> collect(int count, Function<Consumer<Write>, Workload> workloads,
                                       Consumer<Workload> step) {
        List<Write> out = new ArrayList<>();
        Workload workload = workloads.apply(out::add);
        while (out.size() < count) {
            step.accept(workload);
        }
        return List.copyOf(out);
    }

    private static void send(DynamoDbClient dynamo, String table, Write write) {
        if (write.isDelete()) {
            dynamo.deleteItem(r -> r.tableName(table).key(write.key().toAttributeMap()));
        } else {
            dynamo.putItem(r -> r.tableName(table).item(write.item()));
        }
    }

    public void run(int operations) {
        for (int i = 0; i < operations; i++) {
            step();
        }
    }

    /** {@code count} steps of one domain's part alone (added to the mix if it was not). */
    public void run(String domain, int count) {
        with(domain);
        WorkloadPart part = parts.get(domain);
        for (int i = 0; i < count; i++) {
            tick();
            stepOf(part);
        }
    }

    /** One step of a part picked by the parts' weights (poison, when asked for, weighs 1). */
    public void step() {
        tick();
        int total = poison ? 1 : 0;
        for (WorkloadPart part : parts.values()) {
            total += part.weight();
        }
        int roll = random.nextInt(total);
        for (WorkloadPart part : parts.values()) {
            roll -= part.weight();
            if (roll < 0) {
                stepOf(part);
                return;
            }
        }
        poisons.step();
    }

    /**
     * Writes one item a stream consumer cannot read: a new item of a known type missing its fields, an unknown type, no
     * type at all; or a change of an existing item into or within garbage: a known base item overwritten with an
     * unreadable one (a later change of it writes it readable again), an unreadable item modified.
     */
    public void poisonStep() {
        poisons.step();
    }

    private void stepOf(WorkloadPart part) {
        current = part;
        try {
            part.step();
        } finally {
            current = null;
        }
    }

    private void tick() {
        now = now.plus(Duration.ofMillis(1 + random.nextInt(1000)));
    }

    private WorkloadPart part(String name) {
        Domain domain = registry.domain(name).orElseThrow(() -> new IllegalArgumentException("no domain '" + name
                + "' in " + registry.domains().stream().map(Domain::name).toList()));
        return domain.workload(context).orElseThrow(() -> new IllegalArgumentException("the domain '" + name
                + "' has no workload part"));
    }

    /** What the parts write with: this workload's random source, clock, ids, users and sink. */
    private final class Context implements WorkloadContext {
        private final List<String> users = new ArrayList<>();

        @Override
        public Random random() {
            return random;
        }

        @Override
        public int skewed(int size) {
            return zipf.index(size);
        }

        @Override
        public Instant now() {
            return now;
        }

        @Override
        public String nextId(String prefix) {
            return prefix + (++sequence);
        }

        @Override
        public List<String> users() {
            return users;
        }

        @Override
        public String user() {
            while (users.size() < 2) {
                UsersWorkload.create(this);
            }
            return pick(users);
        }

        @Override
        public void put(Map<String, AttributeValue> item) {
            out.accept(Write.put(item));
            if (current != null && current.mayPoison(item)) {
                poisons.written(item);
            }
            writes++;
        }

        @Override
        public void delete(Key key) {
            out.accept(Write.delete(key));
            writes++;
        }
    }
}
