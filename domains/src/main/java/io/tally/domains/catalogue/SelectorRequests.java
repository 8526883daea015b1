package io.tally.domains.catalogue;

import io.tally.core.Ids;
import io.tally.core.Items;
import io.tally.core.TableSchema;
import io.tally.core.read.DerivedReads;
import io.tally.core.read.ShardMerge.Position;
import io.tally.core.read.ShardMerge;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * Pure builders of the reads of the catalogue's derived type, the selector entry (access pattern D5), and the
 * positions its merged list resumes from; tested by comparing what they build.
 */
final class SelectorRequests {
    /**
     * Selector entries by score descending, ties by item id descending, like the posts. Within one partition,
     * though, DynamoDB does not define the order of equal scores (DynamoDB Local returns them by insertion), and
     * the merge keeps each partition's own order: the item id decides ties between partitions only.
     */
    static final Comparator<Position> SELECTOR_ORDER =
            Comparator.comparing((Position p) -> Long.parseLong(p.sort())).thenComparing(Position::id).reversed();
    static final ShardMerge<Map<String, AttributeValue>> SELECTOR =
            new ShardMerge<>(SelectorRequests::selectorPosition, SELECTOR_ORDER);
    /** The entry's fields, and the key parts a position is read from. */
    static final List<String> SELECTOR_ATTRIBUTES =
            DerivedReads.listed(Catalogue.SELECTOR_ENTRY, TableSchema.PK, TableSchema.DATA);

    /** A score as the index returns it: a plain whole number that fits a long. */
    private static final Pattern WHOLE_NUMBER = Pattern.compile("0|[1-9][0-9]{0,17}");

    private SelectorRequests() {
    }

    /** D5: one page of one partition of a selector, by score descending; one item more than the page. */
    static QueryRequest selector(String table, String partition, int limit, Position after) {
        return DerivedReads.indexQuery(table, TableSchema.CYCLE_SELECTOR_INDEX, TableSchema.SELECTOR, partition,
                SELECTOR_ATTRIBUTES, limit, after == null ? null : selectorStartKey(partition, after));
    }

    /**
     * The index partitions of a selector: a cycle is one, the back catalogue is spread over
     * {@code back-catalogue:0..K-1} (see {@link CatalogueKeys#selectorPartition}).
     */
    static List<String> selectorPartitions(String selector, int backCatalogueShards) {
        if (!Selectors.BACK_CATALOGUE.equals(selector)) {
            return List.of(selector);
        }
        return IntStream.range(0, backCatalogueShards).mapToObj(CatalogueKeys::backCatalogueShard).toList();
    }

    /**
     * A cursor is only good for the list that issued it, read with the same number of partitions: a cursor
     * from before the shard count changed is refused rather than misread.
     */
    static String selectorScope(String selector, int partitions) {
        return "selector\n" + selector + "\n" + partitions;
    }

    /** Where a selector entry (or a {@code LastEvaluatedKey} of CycleSelector) sits: its score and item id. */
    static Position selectorPosition(Map<String, AttributeValue> item) {
        return new Position(Long.toString(Items.number(item, TableSchema.DATA)),
                DerivedReads.idAfter(item, CatalogueKeys.ITEM_PREFIX));
    }

    /** A position from a cursor must be one {@link #selectorPosition} could have produced. */
    static boolean isValidSelectorPosition(Position position) {
        return Ids.isValid(position.id()) && WHOLE_NUMBER.matcher(position.sort()).matches();
    }

    static Map<String, AttributeValue> selectorStartKey(String partition, Position after) {
        Map<String, AttributeValue> key = new HashMap<>(Catalogue.SELECTOR_ENTRY.key(after.id()).toAttributeMap());
        key.put(TableSchema.SELECTOR, AttributeValue.fromS(partition));
        key.put(TableSchema.DATA, AttributeValue.fromN(after.sort()));
        return key;
    }
}
