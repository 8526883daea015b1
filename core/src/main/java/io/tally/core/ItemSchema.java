package io.tally.core;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * How an entity record is stored as an item, declared once: each record component is the attribute of the same name,
 * its type saying how it is stored, plus the item's key, its entity type and any attribute computed from the record
 * (the key of an index, say). One generic mapper for every entity instead of a hand-written {@code toItem} and
 * {@code fromItem} each.
 *
 * <p>Stored as: {@code String} as S; {@code long}, {@code int} and their boxes as N; {@code Double} as N in plain
 * notation; {@code boolean} and {@code Boolean} as BOOL; {@link Instant} as S in the contract's format
 * ({@link Timestamps}); an enum as S, its {@link Coded#value()} when it has one, else its name. A component named in
 * {@link Builder#optional} (or of a boxed type) may be null: it is then left out of the item, and read back as null;
 * any other component that is missing or malformed makes reading fail with {@link MalformedItemException}, which the
 * stream processor reports as a poison record.
 *
 * <p>The record's components are found once, when the schema is built (a class's schema is a constant), not per item.
 *
 * @param <T> the entity record
 */
public final class ItemSchema<T extends Record> {
    /** An enum stored by a value of its own (e.g. {@code in-progress}) rather than its constant's name. */
    public interface Coded {
        String value();

        /** The constant of {@code values} whose value this is, if one is. */
        static <E extends Enum<E> & Coded> java.util.Optional<E> parse(E[] values, String value) {
            return java.util.Arrays.stream(values).filter(constant -> constant.value().equals(value)).findFirst();
        }
    }

    private final Class<T> type;
    private final List<EntityType> entityTypes;
    private final Function<T, Key> key;
    /** The pattern its key is made from, when it was declared by one. */
    private final KeyTemplate keyTemplate;
    private final List<SchemaField> fields;
    private final Map<String, Function<T, AttributeValue>> computed;
    private final Constructor<T> constructor;
    /** How {@link #fromItem} reads an item of its type, when the record is not read from its components alone. */
    private final Function<Map<String, AttributeValue>, T> reader;

    private ItemSchema(Builder<T> builder) {
        this.type = builder.type;
        this.entityTypes = List.copyOf(builder.entityTypes);
        this.keyTemplate = builder.keyTemplate;
        this.computed = Map.copyOf(builder.computed);
        this.reader = builder.reader;
        RecordComponent[] components = type.getRecordComponents();
        List<SchemaField> fields = new ArrayList<>();
        for (RecordComponent component : components) {
            String name = component.getName();
            boolean optional = builder.optional.contains(name) || !component.getType().isPrimitive()
                    && component.getType() != String.class && component.getType() != Instant.class
                    && !component.getType().isEnum();
            java.lang.reflect.Method accessor = component.getAccessor();
            accessor.setAccessible(true);
            fields.add(new SchemaField(name, component, accessor, optional, !builder.transientFields.contains(name)));
        }
        for (String name : builder.optional) {
            if (fields.stream().noneMatch(field -> field.name().equals(name))) {
                throw new IllegalArgumentException(type.getSimpleName() + " has no component '" + name + "'");
            }
        }
        this.fields = List.copyOf(fields);
        this.key = keyTemplate == null ? builder.key : keyOf(keyTemplate);
        try {
            this.constructor = type.getDeclaredConstructor(Arrays.stream(components).map(RecordComponent::getType)
                    .toArray(Class<?>[]::new));
            // A domain's record need not be public (a view may read a package-private one): made once, here, or a
            // record it cannot construct would make every read of such an item a problem.
            constructor.setAccessible(true);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(type + " has no canonical constructor", e);
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot construct " + type.getName() + ": " + e, e);
        }
    }

    /** The record the items hold. */
    public Class<T> type() {
        return type;
    }

    /** The schema of items of {@code entityType} holding records of {@code type}, at the key {@code key} gives. */
    public static <T extends Record> Builder<T> of(Class<T> type, EntityType entityType, Function<T, Key> key) {
        return new Builder<>(type, entityType, key);
    }

    /**
     * The schema of items of {@code entityType} holding records of {@code type}, at the key its pattern makes of the
     * record's components of the placeholders' names ({@link KeyTemplate}: {@code USER#<userId> / REVIEW#<itemId>}).
     * The pattern is also the type's key pattern for the registry's checks, and a resource at a path whose parameters
     * have those names needs no key function ({@code EntityResource.at(path, schema)}).
     */
    public static <T extends Record> Builder<T> keyed(Class<T> type, EntityType entityType, String pattern) {
        return new Builder<>(type, entityType, KeyTemplate.of(pattern));
    }

    /** The pattern its key is made from, when it was declared by one ({@link #keyed}). */
    public java.util.Optional<KeyTemplate> keyTemplate() {
        return java.util.Optional.ofNullable(keyTemplate);
    }

    /**
     * The ids a record's key is made of, in the record's order, joined with {@code /} ({@code userId/itemId}): the
     * subject of the events about it, for a schema {@link #keyed} by a pattern.
     *
     * @throws IllegalStateException for a schema with a key function instead
     */
    public String subject(T record) {
        if (keyTemplate == null) {
            throw new IllegalStateException(type.getSimpleName() + " is not keyed by a pattern: name its events'"
                    + " subject");
        }
        java.util.Set<String> names = keyTemplate.names();
        return fields.stream().filter(field -> names.contains(field.name())).map(field -> String.valueOf(
                field.get(record))).collect(java.util.stream.Collectors.joining("/"));
    }

    /** The key function of a template: each name the value of the component of that name, checked now. */
    private Function<T, Key> keyOf(KeyTemplate template) {
        Map<String, SchemaField> byName = new LinkedHashMap<>();
        for (String name : template.names()) {
            SchemaField field = fields.stream().filter(candidate -> candidate.name().equals(name)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(type.getSimpleName() + " has no component '" + name
                            + "' for its key '" + template.pattern() + "'"));
            byName.put(name, field);
        }
        return record -> template.key(name -> {
            Object value = byName.get(name).get(record);
            return value == null ? null : value.toString();
        });
    }

    /** The entity type written into the items (the first, when the schema reads several). */
    public EntityType entityType() {
        return entityTypes.get(0);
    }

    public Key key(T value) {
        return key.apply(value);
    }

    /** The item: key, entity type, every component that is not null, every computed attribute. */
    public Map<String, AttributeValue> toItem(T value) {
        Map<String, AttributeValue> item = new HashMap<>(key.apply(value).toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, AttributeValue.fromS(entityType().attributeValue()));
        putFields(value, item);
        computed.forEach((name, compute) -> {
            AttributeValue attribute = compute.apply(value);
            if (attribute != null) {
                item.put(name, attribute);
            }
        });
        return item;
    }

    /**
     * The names of the attributes its items may hold beside the key and the entity type: the stored components and the
     * computed attributes.
     */
    public java.util.Set<String> attributeNames() {
        java.util.Set<String> names = new java.util.LinkedHashSet<>();
        fields.stream().filter(SchemaField::stored).forEach(field -> names.add(field.name()));
        names.addAll(computed.keySet());
        return names;
    }

    /**
     * The stored components of {@code value} (not the key, type or computed attributes) in a new map, in component
     * order, to add to: e.g. the document of a derived item that copies the value.
     */
    public Map<String, AttributeValue> fieldsOf(T value) {
        Map<String, AttributeValue> fields = new LinkedHashMap<>();
        putFields(value, fields);
        return fields;
    }

    /** The stored components of {@code value} (not the key, type or computed attributes) into {@code item}. */
    public void putFields(T value, Map<String, AttributeValue> item) {
        for (SchemaField field : fields) {
            if (field.stored()) {
                AttributeValue attribute = field.write(field.get(value));
                if (attribute != null) {
                    item.put(field.name(), attribute);
                }
            }
        }
    }

    /** The record an item holds; checks its entity type first, so that a mapper never reads an item of another kind. */
    public T fromItem(Map<String, AttributeValue> item) {
        Items.expectType(item, entityTypes.toArray(EntityType[]::new));
        return reader != null ? reader.apply(item) : fields(item, Map.of());
    }

    /**
     * The record from the attributes of any item that carries its stored components (a copy of the entity in another
     * item, say), whatever its type; {@code given} supplies components the item does not store.
     */
    public T fields(Map<String, AttributeValue> item, Map<String, Object> given) {
        Object[] values = new Object[fields.size()];
        for (int i = 0; i < values.length; i++) {
            SchemaField field = fields.get(i);
            values[i] = given.containsKey(field.name()) ? given.get(field.name()) : field.read(item);
        }
        try {
            return constructor.newInstance(values);
        } catch (InvocationTargetException e) {
            // The record's own checks refused the values: the item is malformed.
            throw new MalformedItemException(type.getSimpleName() + ": " + e.getCause().getMessage());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot construct " + type, e);
        }
    }

    /** Declares a schema; every component is stored and required unless said otherwise. */
    public static final class Builder<T extends Record> {
        private final Class<T> type;
        private final List<EntityType> entityTypes = new ArrayList<>();
        private final Function<T, Key> key;
        private KeyTemplate keyTemplate;
        private final Set<String> optional = new java.util.HashSet<>();
        private final Set<String> transientFields = new java.util.HashSet<>();
        private final Map<String, Function<T, AttributeValue>> computed = new LinkedHashMap<>();
        private Function<Map<String, AttributeValue>, T> reader;

        private Builder(Class<T> type, EntityType entityType, Function<T, Key> key) {
            this.type = Objects.requireNonNull(type, "type");
            this.entityTypes.add(Objects.requireNonNull(entityType, "entityType"));
            this.key = Objects.requireNonNull(key, "key");
        }

        private Builder(Class<T> type, EntityType entityType, KeyTemplate template) {
            this.type = Objects.requireNonNull(type, "type");
            this.entityTypes.add(Objects.requireNonNull(entityType, "entityType"));
            this.key = null;
            this.keyTemplate = template;
        }

        /**
         * Spreads the items of a {@link #keyed} schema over partitions: the pattern's {@code placeholder} is the slot, 0
         * to {@code count - 1}, that the component {@code from} falls in ({@link KeyTemplate#spread}).
         */
        public Builder<T> spread(String placeholder, int count, String from) {
            if (keyTemplate == null) {
                throw new IllegalStateException("only a schema keyed by a pattern spreads its items: " + type.getSimpleName());
            }
            keyTemplate = keyTemplate.spread(placeholder, count, from);
            return this;
        }

        /**
         * How {@link ItemSchema#fromItem} reads an item (after checking its entity type), for a record some of whose
         * components are read another way (a link that carries a copy of its favourite, say): the same reader for the
         * domain's derivation and its views, so that both take the same items as readable.
         */
        public Builder<T> readBy(Function<Map<String, AttributeValue>, T> read) {
            this.reader = Objects.requireNonNull(read, "read");
            return this;
        }

        /** Components that may be null: left out of the item, read back as null. */
        public Builder<T> optional(String... components) {
            optional.addAll(List.of(components));
            return this;
        }

        /** Components the item does not store (read back as null, or as {@link ItemSchema#fields} is given them). */
        public Builder<T> notStored(String... components) {
            transientFields.addAll(List.of(components));
            optional.addAll(List.of(components));
            return this;
        }

        /** An attribute computed from the record on every write (an index key, say); null leaves it out. */
        public Builder<T> computed(String attribute, Function<T, String> value) {
            computed.put(attribute, record -> {
                String text = value.apply(record);
                return text == null ? null : AttributeValue.fromS(text);
            });
            return this;
        }

        /** Another entity type whose items hold the same record (a copy kept for a list, say), for reading. */
        public Builder<T> alsoReads(EntityType entityType) {
            entityTypes.add(entityType);
            return this;
        }

        public ItemSchema<T> build() {
            return new ItemSchema<>(this);
        }
    }
}
