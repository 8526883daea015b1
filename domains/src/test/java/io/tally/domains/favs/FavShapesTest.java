package io.tally.domains.favs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.MalformedItemException;
import io.tally.core.http.Json;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The items and the contract's JSON of seed 004, each declared once by its record, attribute for attribute. */
class FavShapesTest {
    private static final Instant T = Instant.parse("2021-10-10T05:45:28.120Z");
    private static final String TS = "2021-10-10T05:45:28.120Z";
    private static final Favourite FAV = new Favourite("u1", "f1", FavouriteType.LINK, "Best pizza", "https://p.example",
            null, null, T, "fi1");

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static Map<String, AttributeValue> favouriteFields() {
        return new HashMap<>(Map.of("userId", s("u1"), "favouriteId", s("f1"), "type", s("link"),
                "title", s("Best pizza"), "contentUrl", s("https://p.example"), "clippedAt", s(TS)));
    }

    @Test
    void items_holdTheKeyTheTypeTheIndexKeysAndEveryPresentField() {
        Map<String, AttributeValue> favourite = favouriteFields();
        favourite.putAll(Map.of("pk", s("FAVS#u1"), "sk", s("FAV#f1"), "entityType", s("Favourite"),
                "incarnation", s("fi1"), "favTypeKey", s("u1#link"), "clippedKey", s(TS + "#f1")));
        assertThat(FAV.toItem()).isEqualTo(favourite);

        Map<String, AttributeValue> link = favouriteFields();
        link.putAll(Map.of("pk", s("FAVTAGS#u1#f1"), "sk", s("TAG#t1"), "entityType", s("FavouriteTag"),
                "tagId", s("t1"), "linkedAt", s(TS), "favouriteIncarnation", s("fi1"), "tagIncarnation", s("ti1"),
                "linkTagKey", s("u1#t1"), "linkTagTypeKey", s("u1#t1#link"), "clippedKey", s(TS + "#f1")));
        assertThat(new FavouriteTag(FAV, "t1", T, "ti1").toItem()).isEqualTo(link);

        Map<String, AttributeValue> tag = new HashMap<>(Map.of("pk", s("TAGS#u1"), "sk", s("TAG#t1"),
                "entityType", s("Tag"), "userId", s("u1"), "tagId", s("t1"), "name", s("Food"), "createdAt", s(TS),
                "lastAccessAt", s(TS), "incarnation", s("ti1"), "tagNameKey", s("food")));
        tag.putAll(Map.of("tagCreatedKey", s(TS + "#t1"), "tagAccessedKey", s(TS + "#t1")));
        assertThat(new Tag("u1", "t1", "Food", T, T, "ti1").toItem()).isEqualTo(tag);

        assertThat(new TagName("u1", "Food", "t1").toItem()).isEqualTo(Map.of("pk", s("TAGS#u1"),
                "sk", s("TAGNAME#food"), "entityType", s("TagName"), "tagId", s("t1")));
    }

    @Test
    void fromItem_unknownTypeOrMissingIncarnation_isMalformed() {
        Map<String, AttributeValue> favourite = new HashMap<>(FAV.toItem());
        favourite.put("type", s("painting"));
        assertThatThrownBy(() -> Favourite.fromItem(favourite)).isInstanceOf(MalformedItemException.class);
        Map<String, AttributeValue> link = new HashMap<>(new FavouriteTag(FAV, "t1", T, "ti1").toItem());
        link.remove("favouriteIncarnation");
        assertThatThrownBy(() -> FavouriteTag.fromItem(link)).isInstanceOf(MalformedItemException.class);
        assertThatThrownBy(() -> TagName.tagIdOf(FAV.toItem())).isInstanceOf(MalformedItemException.class);
    }

    @Test
    void json_isTheContractsFieldsInOrder_nullsWritten_ownersAndIncarnationsLeftOut() {
        assertThat(Json.tree(FAV).toString()).isEqualTo("{\"favouriteId\":\"f1\",\"userId\":\"u1\",\"type\":\"link\","
                + "\"title\":\"Best pizza\",\"contentUrl\":\"https://p.example\",\"thumbnailUrl\":null,"
                + "\"creatorId\":null,\"clippedAt\":\"" + TS + "\"}");
        assertThat(Json.tree(Favourite.listed(new FavouriteTag(FAV, "t1", T, "ti1").toItem())))
                .isEqualTo(Json.tree(FAV));
        assertThat(Json.tree(new Tag("u1", "t1", "Food", T, T.plusSeconds(1), "ti1")).toString()).isEqualTo(
                "{\"tagId\":\"t1\",\"name\":\"Food\",\"createdAt\":\"" + TS
                        + "\",\"lastAccessAt\":\"2021-10-10T05:45:29.120Z\"}");
        assertThat(Json.tree(LinkRoutes.TagLink.of(new FavouriteTag(FAV, "t1", T, "ti1"))).toString())
                .isEqualTo("{\"favouriteId\":\"f1\",\"tagId\":\"t1\",\"linkedAt\":\"" + TS + "\"}");
    }

    @Test
    void stats_typesInDeclarationOrder_tagsById_zerosLeftOut() {
        Map<String, Long> stored = Map.of("favourites", 3L, "type:note", 1L, "type:image", 2L, "type:link", 0L,
                "tag:t2", 1L, "tag:t1", 2L, "tag:t0", 0L);
        assertThat(Json.tree(FavFigures.STATS.answer("u1", stored)).toString()).isEqualTo(
                "{\"userId\":\"u1\",\"favourites\":3,\"byType\":{\"image\":2,\"note\":1},\"byTag\":{\"t1\":2,\"t2\":1}}");
        assertThat(Json.tree(FavFigures.STATS.answer("u1", Map.of())).toString())
                .isEqualTo("{\"userId\":\"u1\",\"favourites\":0,\"byType\":{},\"byTag\":{}}");
    }
}
