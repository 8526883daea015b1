package io.tally.core;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * The one declaration of a kind of derived item: its entity type, its key, its counters, its document fields and
 * which of those are index keys. Derivations address counters and documents through it, the stream engine checks
 * every write against it, the rebuilder compares stored items attribute by attribute with it, and the read side
 * renders it; so a derived type cannot be half known.
 *
 * <p>Counters are numbers the stream adds to (commutative, summed over all base items); the document is owned by
 * one base item, whose latest state sets it. The two never share an attribute.
 */
public final class DerivedType {
    private final EntityType entityType;
    private final String keyPattern;
    private final Function<String, Key> keyOf;
    private final List<String> counters;
    private final List<String> counterFamilies;
    private final List<String> document;
    private final List<String> indexKeys;
    private final boolean slotted;
    private final boolean shared;
    private final boolean openCounters;
    private final boolean constantDocument;
    /** For the membership checks every counter and document write makes. */
    private final Set<String> counterSet;
    private final Set<String> documentSet;

    private DerivedType(Builder builder) {
        this.entityType = EntityType.derivedType(builder.name);
        this.keyPattern = Objects.requireNonNull(builder.keyPattern, "key");
        this.keyOf = Objects.requireNonNull(builder.keyOf, "key");
        this.counters = List.copyOf(builder.counters);
        this.counterFamilies = List.copyOf(builder.counterFamilies);
        this.document = List.copyOf(builder.document);
        this.indexKeys = List.copyOf(builder.indexKeys);
        this.slotted = builder.slotted;
        this.shared = builder.shared || builder.slotted;
        this.openCounters = builder.openCounters;
        this.constantDocument = builder.constantDocument;
        this.counterSet = Set.copyOf(counters);
        this.documentSet = Set.copyOf(document);
        DerivedTypeChecks.check(this);
    }

    /** The slot that names every slot of a slotted type at once, in reports: e.g. {@code GLOBAL#STATS#*}. */
    public static final String ALL_SLOTS = "*";
    static final String SLOT_SEPARATOR = "#";

    public static Builder named(String name) {
        return new Builder(name);
    }

    /**
     * Attributes no derivation may write: the key, the entity type and the stream engine's bookkeeping, i.e. the
     * per-shard watermarks ({@code wm_...}), the revision of the document an item holds ({@code srcRev}) and the
     * item's write version ({@code wv}).
     */
    public static boolean isReserved(String attribute) {
        return attribute.equals(TableSchema.PK) || attribute.equals(TableSchema.SK)
                || attribute.equals(TableSchema.ENTITY_TYPE) || attribute.equals(TableSchema.SOURCE_REVISION)
                || attribute.equals(TableSchema.WRITE_VERSION) || attribute.startsWith(TableSchema.WATERMARKS + "_");
    }

    public EntityType entityType() {
        return entityType;
    }

    public String name() {
        return entityType.attributeValue();
    }

    /** The key of the item of a subject, e.g. the user id of a user's stats. */
    public Key key(String subject) {
        return keyOf.apply(subject);
    }

    /**
     * Whether its items are partial sums, one per slot of the stream's shards: the stream engine adds each change to
     * the item of the slot of the shard it came from ({@link #inSlot}), so that an item is written by few shards and
     * keeps few watermarks however many shards the stream has. Only the sum over the slots of one subject has a
     * meaning (all slots of the global totals; the slots of one day's downloads); readers and the rebuilder sum them.
     * The partition key of a slotted item ends with its slot ({@code #<slot>}), so the slots of a subject are apart
     * partitions, and a derivation addresses slot 0 ({@link #key}).
     */
    public boolean isSlotted() {
        return slotted;
    }

    /**
     * Whether its counters are kept as per-lineage partials: an item written by records of unboundedly many
     * partitions (a user's stats, counted by comments on every post; the global totals) would otherwise collect the
     * exactly-once bookkeeping of every stream shard that writes it. The stream engine adds a record's counter changes
     * to the partial of the lineage of the shard it came from ({@link #partial}; a lineage is a chain of shards, each
     * continuing its parent's partition, so one shard at a time), an item of its own written by that lineage alone,
     * with the watermarks of its shards; the document, owned by one base item, stays on the base item ({@link #key}),
     * and a partial whose every shard is gone is folded into the base item exactly once. Only the base item and its
     * partials together
     * have a meaning: readers read them with one Query ({@code SharedReads}) and sum the counters. Slotted types are
     * shared.
     */
    public boolean isShared() {
        return shared;
    }

    /**
     * The partial of the shard lineage whose token is given (the token of its first shard), of the shared item
     * {@code base}: the base item's partition key and its sort key followed by {@link PartialKeys#MARK} and the token.
     */
    public Key partial(Key base, String shardToken) {
        if (!shared) {
            throw new IllegalStateException(name() + " is not shared");
        }
        return PartialKeys.partial(base, shardToken);
    }

    /**
     * The key that names a shared item whole, in reports and in the rebuild's groups: the base item of a partial,
     * and for a slotted type that of every slot at once ({@link #ALL_SLOTS}).
     */
    public Key whole(Key key) {
        Key base = PartialKeys.baseOf(key);
        return slotted ? inSlot(base, ALL_SLOTS) : base;
    }

    /** The key of one slot of a slotted type whose key needs no subject but the slot (the global totals). */
    public Key slotKey(int slot) {
        return inSlot(key("0"), Integer.toString(slot));
    }

    /**
     * The key of the same subject's item in another slot of a slotted type: its partition key with the slot replaced
     * ({@code DOWNLOADS#DAYS#0 / DAY#2026-11-27} in slot 3 is {@code DOWNLOADS#DAYS#3 / DAY#2026-11-27}); slot
     * {@link #ALL_SLOTS} names the whole, in reports.
     */
    public Key inSlot(Key key, String slot) {
        if (!slotted) {
            throw new IllegalStateException(name() + " is not slotted");
        }
        String pk = key.pk();
        return new Key(pk.substring(0, pk.lastIndexOf(SLOT_SEPARATOR) + 1) + slot, key.sk());
    }

    /** The key pattern, as {@code docs/table-design.md} shows it, e.g. {@code USER#<userId> / #STATS#}. */
    public String keyPattern() {
        return keyPattern;
    }

    /**
     * The declared counters, in the order the read side shows them; none for a type whose counters the domains
     * declare ({@link #hasOpenCounters}), whose list is the registry's ({@code DomainRegistry.counters}).
     */
    public List<String> counters() {
        return counters;
    }

    /**
     * Whether its counters are declared by the domains that share the item (a user's stats, the global totals), each
     * as a {@link SharedCounter}, rather than here: any attribute that is neither reserved nor a document field is then
     * one of its counters, and the registry of domains knows which ones exist and in what order.
     */
    public boolean hasOpenCounters() {
        return openCounters;
    }

    /**
     * Whether its document is the same in every state of every source that counts on the item, a function of the item's
     * key alone: a ranking's entry, whose document places it in an index ({@code selector}) and whose counter is the
     * index's range key. Every contribution that counts on the item carries the document at revision 0, and a change
     * never removes it (a removal would outrank every later revision-0 write, and the item would leave the index for
     * good). So an item whose counters are all 0 stays, with its document, where nothing counts on it any more: readers
     * skip it (the index's key condition) and the rebuild takes it as absent.
     */
    public boolean hasConstantDocument() {
        return constantDocument;
    }

    /** Prefixes of counters named at run time (e.g. one counter per tag); each family is a prefix. */
    public List<String> counterFamilies() {
        return counterFamilies;
    }

    /** The document fields (index keys included), set by the item's owner. */
    public List<String> document() {
        return document;
    }

    /** The document fields that are keys of a secondary index. */
    public List<String> indexKeys() {
        return indexKeys;
    }

    /** Counters and document fields, in declaration order. */
    public List<String> attributes() {
        List<String> all = new ArrayList<>(counters);
        all.addAll(document);
        return all;
    }

    public boolean isCounter(String attribute) {
        if (counterSet.contains(attribute)) {
            return true;
        }
        if (openCounters) {
            return !documentSet.contains(attribute) && !isReserved(attribute);
        }
        for (String family : counterFamilies) {
            if (attribute.startsWith(family)) {
                return true;
            }
        }
        return false;
    }

    public boolean isDocument(String attribute) {
        return documentSet.contains(attribute);
    }

    /** The document fields as a set: what writing a document removes when the owner no longer sets them. */
    public Set<String> documentFields() {
        return documentSet;
    }

    /** Whether the attribute is part of this type's content (not its key, type or bookkeeping). */
    public boolean declares(String attribute) {
        return isCounter(attribute) || isDocument(attribute);
    }

    @Override
    public String toString() {
        return name();
    }

    /** Declares a derived type; {@link #key} is required, everything else defaults to none. */
    public static final class Builder {
        private final String name;
        private String keyPattern;
        private Function<String, Key> keyOf;
        private final Set<String> counters = new LinkedHashSet<>();
        private final Set<String> counterFamilies = new LinkedHashSet<>();
        private final Set<String> document = new LinkedHashSet<>();
        private final Set<String> indexKeys = new LinkedHashSet<>();
        private boolean slotted;
        private boolean shared;
        private boolean openCounters;
        private boolean constantDocument;

        private Builder(String name) {
            this.name = name;
        }

        public Builder key(String pattern, Function<String, Key> keyOf) {
            this.keyPattern = pattern;
            this.keyOf = keyOf;
            return this;
        }

        public Builder counters(List<String> names) {
            counters.addAll(names);
            return this;
        }

        public Builder counters(String... names) {
            return counters(List.of(names));
        }

        public Builder counterFamily(String prefix) {
            counterFamilies.add(prefix);
            return this;
        }

        public Builder document(String... names) {
            document.addAll(List.of(names));
            return this;
        }

        /** Document fields that are also keys of a secondary index. */
        public Builder indexKeys(String... names) {
            document.addAll(List.of(names));
            indexKeys.addAll(List.of(names));
            return this;
        }

        /**
         * Partial sums, one item per slot of the stream's shards ({@link DerivedType#isSlotted}); the key function
         * takes the slot number, and {@link DerivedType#ALL_SLOTS} for the name of the whole.
         */
        public Builder slotted() {
            this.slotted = true;
            return this;
        }

        /**
         * Counters kept as per-lineage partials ({@link DerivedType#isShared}): declare it for every type whose counters
         * records of many partitions change (a user's totals over what they did anywhere, an organisation's over all
         * its teams), so that no item's size depends on the number of partitions or shard generations.
         */
        public Builder shared() {
            this.shared = true;
            return this;
        }

        /** Counters declared by the domains that share the item ({@link DerivedType#hasOpenCounters}). */
        public Builder openCounters() {
            this.openCounters = true;
            return this;
        }

        /** A document that is a function of the item's key, never removed ({@link DerivedType#hasConstantDocument}). */
        public Builder constantDocument() {
            this.constantDocument = true;
            return this;
        }

        public DerivedType build() {
            return new DerivedType(this);
        }
    }
}
