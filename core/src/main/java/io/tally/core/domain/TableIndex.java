package io.tally.core.domain;

import io.tally.core.Key;
import io.tally.core.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * A secondary index of the single table, declared by the domain that reads it ({@link Declaration#indexes}): its name,
 * keys, what it projects and why it exists. The registry gathers every domain's indexes
 * ({@link DomainRegistry#indexes}); the table is created from them ({@link TableIndexes#createTableRequest}) and the
 * deployment template's indexes are generated from them ({@code tally-local template}). Another domain may add
 * attributes to an index's projection ({@link Declaration#projects}), as the catalogue and the songs do to the
 * rankings' index.
 *
 * @param name        the index's name, unique in the table
 * @param local       a local secondary index (the table's {@code pk} as its hash key), else a global one
 * @param hash        the hash key attribute: {@code pk} for a local index
 * @param range       the range key attribute
 * @param projection  {@code ALL}, {@code KEYS_ONLY} or {@code INCLUDE}
 * @param includes    the attributes an {@code INCLUDE} projection carries besides the keys, in order
 * @param description why the index exists and what carries its keys, for the template's comment
 */
public record TableIndex(String name, boolean local, Key hash, Key range, ProjectionType projection,
                         List<String> includes, String description) {
    /** DynamoDB's limits: local indexes can only be made with the table. */
    public static final int MAX_LOCAL = 5;
    public static final int MAX_GLOBAL = 20;

    /** A key attribute and its type ({@code S} or {@code N}). */
    public record Key(String attribute, ScalarAttributeType type) {
        public Key {
            Objects.requireNonNull(attribute, "attribute");
            if (type != ScalarAttributeType.S && type != ScalarAttributeType.N && type != ScalarAttributeType.B) {
                throw new IllegalArgumentException("key attribute '" + attribute + "' has no type S, N or B: " + type);
            }
        }
    }

    public TableIndex {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(hash, "hash");
        Objects.requireNonNull(range, "range");
        Objects.requireNonNull(projection, "projection");
        includes = List.copyOf(includes);
        description = description == null ? "" : description;
        if (!name.matches("[A-Za-z0-9_.-]{3,255}")) {
            throw new IllegalArgumentException("index name '" + name + "' is not 3 to 255 of A-Z, a-z, 0-9, _ . -");
        }
        if (local && !hash.equals(new Key(TableSchema.PK, ScalarAttributeType.S))) {
            throw new IllegalArgumentException("local index " + name + " must have the table's pk as its hash key");
        }
        if (projection != ProjectionType.INCLUDE && !includes.isEmpty()) {
            throw new IllegalArgumentException("index " + name + " projects " + projection + ": it takes no attributes");
        }
    }

    /** A global index over {@code hash} and {@code range} (strings both), projecting every attribute. */
    public static TableIndex global(String name, String hash, String range) {
        return new TableIndex(name, false, new Key(hash, ScalarAttributeType.S), new Key(range, ScalarAttributeType.S),
                ProjectionType.ALL, List.of(), "");
    }

    /** A local index over the table's partition, ranged by {@code range} (a string), projecting every attribute. */
    public static TableIndex local(String name, String range) {
        return new TableIndex(name, true, new Key(TableSchema.PK, ScalarAttributeType.S),
                new Key(range, ScalarAttributeType.S), ProjectionType.ALL, List.of(), "");
    }

    /** The same index with its range key a number. */
    public TableIndex numericRange() {
        return new TableIndex(name, local, hash, new Key(range.attribute(), ScalarAttributeType.N), projection,
                includes, description);
    }

    /** The same index projecting only the keys and these attributes ({@code INCLUDE}). */
    public TableIndex including(String... attributes) {
        return new TableIndex(name, local, hash, range, ProjectionType.INCLUDE, List.of(attributes), description);
    }

    /** The same index, with why it exists (the template's comment above it). */
    public TableIndex described(String text) {
        return new TableIndex(name, local, hash, range, projection, includes, text);
    }

    /** The same index projecting {@code more} too, each once, after its own. */
    TableIndex alsoIncluding(List<String> more) {
        if (projection != ProjectionType.INCLUDE) {
            return this;
        }
        List<String> all = new ArrayList<>(includes);
        more.stream().filter(attribute -> !all.contains(attribute)).forEach(all::add);
        return new TableIndex(name, local, hash, range, projection, all, description);
    }

    /** Attributes another domain adds to an index's projection ({@link Declaration#projects}). */
    public record Projected(String index, List<String> attributes) {
        public Projected {
            Objects.requireNonNull(index, "index");
            attributes = List.copyOf(attributes);
        }
    }
}
