package io.tally.domains.favs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

class LinkCascadeRequestsTest {
    @Test
    void reads_areConsistent_theFavouritesLinksAndTheUsersFavourites() {
        QueryRequest links = LinkCascadeRequests.favouriteLinks("t", new FavouriteLinks("u1", "f1", "i1"), null);
        assertThat(links.consistentRead()).isTrue();
        assertThat(links.expressionAttributeValues()).containsEntry(":pk", AttributeValue.fromS("FAVTAGS#u1#f1"));
        QueryRequest favourites = LinkCascadeRequests.favourites("t", new TagLinks("u1", "t1", "i2"), null);
        assertThat(favourites.consistentRead()).isTrue();
        assertThat(favourites.indexName()).isNull();
        assertThat(favourites.expressionAttributeValues()).containsEntry(":pk", AttributeValue.fromS("FAVS#u1"))
                .containsEntry(":prefix", AttributeValue.fromS("FAV#"));
        KeysAndAttributes keys = LinkCascadeRequests.tagLinks("t", new TagLinks("u1", "t1", "i2"), List.of("f1", "f2"))
                .requestItems().get("t");
        assertThat(keys.consistentRead()).isTrue();
        assertThat(keys.keys()).containsExactly(FavKeys.link("u1", "f1", "t1").toAttributeMap(),
                FavKeys.link("u1", "f2", "t1").toAttributeMap());
    }
}
