package io.tally.stream.scale;

import io.tally.core.DerivedType;
import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.PartialKeys;
import io.tally.core.domain.DomainRegistry;
import io.tally.stream.engine.Watermarks;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The derived items of a table after a run: their largest size, their watermarks and their partials (the most
 * watermarks on one partial, the lineages' tokens their keys name).
 */
record Measures(int maxItemBytes, String largestItem, int mostWatermarks, String mostWatermarksItem,
                int mostWatermarksOnAPartial, Set<String> partialLineages, int partials, int mostPartials) {

    static Measures of(DynamoDbClient dynamo, String table) {
        DomainRegistry registry = DomainRegistry.load();
        int maxBytes = 0;
        String largest = "";
        int mostWatermarks = 0;
        String mostWatermarksItem = "";
        int mostOnAPartial = 0;
        Set<String> lineages = new HashSet<>();
        Map<Key, Integer> partialsOf = new HashMap<>();
        int partials = 0;
        for (Map<String, AttributeValue> item : dynamo.scanPaginator(r -> r.tableName(table).consistentRead(true))
                .items()) {
            Optional<DerivedType> type = registry.derivedType(Items.entityTypeName(item));
            if (type.isEmpty()) {
                continue;
            }
            Key key = Key.of(item);
            int bytes = size(item);
            if (bytes > maxBytes) {
                maxBytes = bytes;
                largest = type.get().name() + " " + key.pk() + " / " + key.sk() + " (" + bytes + " B)";
            }
            int watermarks = (int) item.keySet().stream().filter(Watermarks::isWatermark).count();
            if (watermarks > mostWatermarks) {
                mostWatermarks = watermarks;
                mostWatermarksItem = type.get().name() + " " + key.pk() + " / " + key.sk();
            }
            if (PartialKeys.isPartial(key)) {
                partials++;
                partialsOf.merge(type.get().whole(key), 1, Integer::sum);
                mostOnAPartial = Math.max(mostOnAPartial, watermarks);
                lineages.add(PartialKeys.partialToken(key));
            }
        }
        int mostPartials = partialsOf.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        return new Measures(maxBytes, largest, mostWatermarks, mostWatermarksItem, mostOnAPartial, Set.copyOf(lineages),
                partials, mostPartials);
    }

    /**
     * An item's size by DynamoDB's rules, near enough: each attribute's name and value in UTF-8, a number as one byte
     * plus one per two digits.
     */
    static int size(Map<String, AttributeValue> item) {
        int bytes = 0;
        for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
            AttributeValue value = attribute.getValue();
            bytes += utf8(attribute.getKey());
            if (value.s() != null) {
                bytes += utf8(value.s());
            } else if (value.n() != null) {
                bytes += 1 + (value.n().replace("-", "").replace(".", "").length() + 1) / 2;
            } else {
                bytes += utf8(value.toString());
            }
        }
        return bytes;
    }

    private static int utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
