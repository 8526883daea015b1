package io.tally.domains.catalogue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.MalformedItemException;
import io.tally.core.http.Json;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class CatalogueJsonTest {
    private static final Instant T1 = Instant.parse("2019-01-22T10:28:49.930Z");
    private static final Instant T2 = Instant.parse("2019-01-23T08:00:00Z");

    @Test
    void selectorEntry_withoutTitle_hasNullTitle() {
        var json = Json.tree(CatalogueFigures.SELECTORS.read(Map.of("entityType", AttributeValue.fromS("SelectorEntry"),
                "itemId", AttributeValue.fromS("i1"), "score", AttributeValue.fromN("70"))));
        assertThat(json.toString()).isEqualTo("{\"itemId\":\"i1\",\"title\":null,\"score\":70}");
    }

    @Test
    void selectorEntry_withTitle_andOfAnotherKind() {
        var json = Json.tree(CatalogueFigures.SELECTORS.read(Map.of("entityType", AttributeValue.fromS("SelectorEntry"),
                "itemId", AttributeValue.fromS("i1"), "title", AttributeValue.fromS("T"),
                "score", AttributeValue.fromN("70"))));
        assertThat(json.toString()).isEqualTo("{\"itemId\":\"i1\",\"title\":\"T\",\"score\":70}");
        assertThatThrownBy(() -> CatalogueFigures.SELECTORS.read(Map.of("entityType", AttributeValue.fromS("CatalogueItem"))))
                .isInstanceOf(MalformedItemException.class);
    }

    @Test
    void item_isTheContractsFields_withoutItsRevision() {
        assertThat(Json.tree(new CatalogueItem("55", null, 70, "global-cycle:5", T1, 7)).toString())
                .isEqualTo("{\"itemId\":\"55\",\"title\":null,\"score\":70,\"selector\":\"global-cycle:5\","
                        + "\"updatedAt\":\"2019-01-22T10:28:49.930Z\"}");
        assertThat(Json.tree(new CatalogueItem("55", "T", 0, "back-catalogue", T1, 0)).toString())
                .isEqualTo("{\"itemId\":\"55\",\"title\":\"T\",\"score\":0,\"selector\":\"back-catalogue\","
                        + "\"updatedAt\":\"2019-01-22T10:28:49.930Z\"}");
    }

    @Test
    void userItem_writesAbsentFlagsAsNull_andProgressAsADecimal() {
        assertThat(Json.tree(new UserItem("8790", "3", ItemState.IN_PROGRESS, 99, 1.0, null, true, T1, T2))
                .toString()).isEqualTo("{\"userId\":\"8790\",\"itemId\":\"3\",\"state\":\"in-progress\",\"score\":99,"
                        + "\"progress\":1.0,\"correct\":null,\"live\":true,\"enteredAt\":\"2019-01-22T10:28:49.930Z\","
                        + "\"updatedAt\":\"2019-01-23T08:00:00.000Z\"}");
        assertThat(Json.tree(new UserItem("8790", "3", ItemState.COMPLETED, 5, 0.87, false, null, T1, T2))
                .toString()).isEqualTo("{\"userId\":\"8790\",\"itemId\":\"3\",\"state\":\"completed\",\"score\":5,"
                        + "\"progress\":0.87,\"correct\":false,\"live\":null,\"enteredAt\":\"2019-01-22T10:28:49.930Z\","
                        + "\"updatedAt\":\"2019-01-23T08:00:00.000Z\"}");
        assertThat(Json.tree(new UserItem("8790", "3", ItemState.ASSIGNED, 5, null, null, null, T1, T2))
                .toString()).contains("\"progress\":null,");
    }
}
