package io.tally.core.domain;

import io.tally.core.Key;
import io.tally.core.TableSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/**
 * The table's secondary indexes as the domains declare them ({@link TableIndex}), gathered and checked once by the
 * registry, and the table they make: its {@code CreateTable} request, for DynamoDB Local and the tests, and the
 * deployment template's indexes, generated from the same list ({@code tally-local template}).
 */
public final class TableIndexes {
    private static final TableIndex.Key PK = new TableIndex.Key(TableSchema.PK, ScalarAttributeType.S);
    private static final TableIndex.Key SK = new TableIndex.Key(TableSchema.SK, ScalarAttributeType.S);

    private TableIndexes() {
    }

    /**
     * Every domain's indexes in the registry's order, each with the attributes other domains add to its projection
     * (nothing to add to one that projects every attribute). Refused, naming the domain: an index declared twice, a key
     * attribute of two types, more than {@value TableIndex#MAX_LOCAL} local or {@value TableIndex#MAX_GLOBAL} global
     * indexes, attributes added to an index no domain declares or to one that projects its keys only.
     */
    static List<TableIndex> gather(List<Domain> domains, BiFunction<Domain, String, RuntimeException> invalid) {
        Map<String, TableIndex> indexes = new LinkedHashMap<>();
        Map<String, ScalarAttributeType> types = new LinkedHashMap<>(Map.of(TableSchema.PK, ScalarAttributeType.S,
                TableSchema.SK, ScalarAttributeType.S));
        for (Domain domain : domains) {
            for (TableIndex index : domain.indexes()) {
                if (indexes.putIfAbsent(index.name(), index) != null) {
                    throw invalid.apply(domain, "the index " + index.name() + " is declared twice");
                }
                for (TableIndex.Key key : List.of(index.hash(), index.range())) {
                    ScalarAttributeType other = types.putIfAbsent(key.attribute(), key.type());
                    if (other != null && other != key.type()) {
                        throw invalid.apply(domain, "the index " + index.name() + " keys '" + key.attribute()
                                + "' as " + key.type() + ", another key of the table as " + other);
                    }
                }
            }
            long locals = indexes.values().stream().filter(TableIndex::local).count();
            if (locals > TableIndex.MAX_LOCAL || indexes.size() - locals > TableIndex.MAX_GLOBAL) {
                throw invalid.apply(domain, "the table would have " + locals + " local and " + (indexes.size()
                        - locals) + " global indexes: DynamoDB takes at most " + TableIndex.MAX_LOCAL + " and "
                        + TableIndex.MAX_GLOBAL);
            }
        }
        for (Domain domain : domains) {
            for (TableIndex.Projected projected : domain.projections()) {
                TableIndex index = indexes.get(projected.index());
                if (index == null) {
                    throw invalid.apply(domain, "it adds attributes to the index " + projected.index()
                            + ", which no domain declares; indexes: " + indexes.keySet());
                }
                if (index.projection() == ProjectionType.KEYS_ONLY) {
                    throw invalid.apply(domain, "it adds attributes to the index " + index.name()
                            + ", which projects its keys only");
                }
                indexes.put(index.name(), index.alsoIncluding(projected.attributes()));
            }
        }
        return List.copyOf(indexes.values());
    }

    /**
     * The key attributes of the table and its indexes, each once, the table's first: the template's and the request's
     * {@code AttributeDefinitions}.
     */
    public static List<TableIndex.Key> keyAttributes(List<TableIndex> indexes) {
        List<TableIndex.Key> keys = new ArrayList<>(List.of(PK, SK));
        for (TableIndex index : indexes) {
            for (TableIndex.Key key : List.of(index.hash(), index.range())) {
                if (keys.stream().noneMatch(known -> known.attribute().equals(key.attribute()))) {
                    keys.add(key);
                }
            }
        }
        return keys;
    }

    /**
     * The request that creates the table under {@code tableName} with the registry's indexes, as the template
     * declares it: on-demand, keyed {@code pk}/{@code sk}, its stream with both images. What only matters on AWS
     * (TTL, point-in-time recovery, deletion protection, tags) is the template's alone.
     */
    public static CreateTableRequest createTableRequest(DomainRegistry registry, String tableName) {
        List<TableIndex> indexes = registry.indexes();
        CreateTableRequest.Builder request = CreateTableRequest.builder()
                .tableName(tableName)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(keyAttributes(indexes).stream().map(key -> AttributeDefinition.builder()
                        .attributeName(key.attribute()).attributeType(key.type()).build()).toList())
                .keySchema(keySchema(PK, SK))
                .streamSpecification(StreamSpecification.builder().streamEnabled(true)
                        .streamViewType(StreamViewType.NEW_AND_OLD_IMAGES).build());
        List<GlobalSecondaryIndex> globals = indexes.stream().filter(index -> !index.local())
                .map(index -> GlobalSecondaryIndex.builder().indexName(index.name())
                        .keySchema(keySchema(index.hash(), index.range())).projection(projection(index)).build())
                .toList();
        if (!globals.isEmpty()) {
            request.globalSecondaryIndexes(globals);
        }
        List<LocalSecondaryIndex> locals = indexes.stream().filter(TableIndex::local)
                .map(index -> LocalSecondaryIndex.builder().indexName(index.name())
                        .keySchema(keySchema(index.hash(), index.range())).projection(projection(index)).build())
                .toList();
        if (!locals.isEmpty()) {
            request.localSecondaryIndexes(locals);
        }
        return request.build();
    }

    private static List<KeySchemaElement> keySchema(TableIndex.Key hash, TableIndex.Key range) {
        return List.of(KeySchemaElement.builder().attributeName(hash.attribute()).keyType(KeyType.HASH).build(),
                KeySchemaElement.builder().attributeName(range.attribute()).keyType(KeyType.RANGE).build());
    }

    private static Projection projection(TableIndex index) {
        Projection.Builder projection = Projection.builder().projectionType(index.projection());
        if (index.projection() == ProjectionType.INCLUDE) {
            projection.nonKeyAttributes(index.includes());
        }
        return projection.build();
    }
}
