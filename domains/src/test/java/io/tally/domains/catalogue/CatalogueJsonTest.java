package io.tally.domains.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class CatalogueJsonTest {
    @Test
    void selectorEntry_withoutTitle_hasNullTitle() {
        var json = CatalogueJson.selectorEntry(Map.of("entityType", AttributeValue.fromS("SelectorEntry"),
                "itemId", AttributeValue.fromS("i1"), "score", AttributeValue.fromN("70")));
        assertThat(json.toString()).isEqualTo("{\"itemId\":\"i1\",\"title\":null,\"score\":70}");
    }
}
