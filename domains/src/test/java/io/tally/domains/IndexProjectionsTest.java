package io.tally.domains;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.DerivedType;
import io.tally.core.TableDefinition;
import io.tally.core.read.DerivedReads;
import io.tally.domains.blog.Blog;
import io.tally.domains.catalogue.Catalogue;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The lists read from an index's shards ask for the entries' type and fields but their counters, and the parts of
 * their positions: the table the registry creates projects every one of them into the index (a global secondary index
 * answers no attribute it does not project), and none of the counters, which would cost the index a write with each.
 */
class IndexProjectionsTest {
    @ParameterizedTest(name = "{0} in {1}")
    @CsvSource({"PostProjection, PostsByStatus", "SelectorEntry, CycleSelector"})
    void theIndex_projectsWhatItsListReads_andNoCounter(String typeName, String indexName) {
        DerivedType type = Stream.of(Blog.POST_PROJECTION, Catalogue.SELECTOR_ENTRY)
                .filter(candidate -> candidate.name().equals(typeName)).findFirst().orElseThrow();
        var index = TableDefinition.createTableRequest("t").globalSecondaryIndexes().stream()
                .filter(candidate -> candidate.indexName().equals(indexName)).findFirst().orElseThrow();
        List<String> available = Stream.concat(Stream.of("pk", "sk", index.keySchema().get(0).attributeName(),
                index.keySchema().get(1).attributeName()), index.projection().nonKeyAttributes().stream()).toList();
        List<String> read = DerivedReads.listed(type).stream().filter(field -> !type.counters().contains(field))
                .toList();
        assertThat(read).isSubsetOf(available);
        type.counters().forEach(counter -> assertThat(index.projection().nonKeyAttributes()).doesNotContain(counter));
    }
}
