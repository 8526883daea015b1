package io.tally.domains.favs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.Key;
import io.tally.core.MalformedItemException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class FavItemsTest {
    private static final Instant T = Instant.parse("2021-10-10T05:45:28.000Z");

    @Test
    void keys_followSeed004InPartitionsOfTheirOwn() {
        assertThat(FavKeys.tag("u1", "t1")).isEqualTo(new Key("TAGS#u1", "TAG#t1"));
        assertThat(FavKeys.tagName("u1", "Travel")).isEqualTo(new Key("TAGS#u1", "TAGNAME#travel"));
        assertThat(FavKeys.favourite("u1", "f1")).isEqualTo(new Key("FAVS#u1", "FAV#f1"));
        assertThat(FavKeys.link("u1", "f1", "t1")).isEqualTo(new Key("FAVTAGS#u1#f1", "TAG#t1"));
        assertThat(FavKeys.favouriteStats("u1")).isEqualTo(new Key("FAVS#u1", "#STATS#"));
        assertThat(Favs.SEARCH_ENTRY.key(FavKeys.searchSubject("u1", "f1", "piz")))
                .isEqualTo(new Key("FAVSEARCH#u1#f1", "piz"));
    }

    @Test
    void items_roundTrip_andCarryOnlyTheirOwnIndexKeys() {
        Favourite favourite = new Favourite("u1", "f1", FavouriteType.LINK, "Best pizza", "https://p.example", null,
                "c1", T, "fi1");
        Tag tag = new Tag("u1", "t1", "Food", T, T.plusSeconds(60), "ti1");
        FavouriteTag link = new FavouriteTag(favourite, "t1", T.plusSeconds(5), "ti1");

        assertThat(Favourite.fromItem(favourite.toItem())).isEqualTo(favourite);
        assertThat(Tag.fromItem(tag.toItem())).isEqualTo(tag);
        assertThat(FavouriteTag.fromItem(link.toItem())).isEqualTo(link);
        assertThat(TagName.tagIdOf(new TagName("u1", "FOOD", "t1").toItem())).isEqualTo("t1");

        assertThat(favourite.toItem()).containsKeys(FavKeys.FAV_TYPE_KEY, FavKeys.CLIPPED_KEY)
                .doesNotContainKeys(FavKeys.LINK_TAG_KEY, FavKeys.SEARCH_KEY, FavKeys.TAG_NAME_KEY);
        assertThat(favourite.toItem().get(FavKeys.FAV_TYPE_KEY).s()).isEqualTo("u1#link");
        assertThat(favourite.toItem().get(FavKeys.CLIPPED_KEY).s()).isEqualTo("2021-10-10T05:45:28.000Z#f1");
        assertThat(link.toItem().get(FavKeys.LINK_TAG_KEY).s()).isEqualTo("u1#t1");
        assertThat(link.toItem().get(FavKeys.LINK_TAG_TYPE_KEY).s()).isEqualTo("u1#t1#link");
        assertThat(link.toItem()).doesNotContainKeys(FavKeys.FAV_TYPE_KEY);
        assertThat(tag.toItem().get(FavKeys.TAG_NAME_KEY).s()).isEqualTo("food");
        assertThat(tag.toItem().get(FavKeys.TAG_ACCESSED_KEY).s()).isEqualTo("2021-10-10T05:46:28.000Z#t1");
        assertThat(new TagName("u1", "FOOD", "t1").toItem()).doesNotContainKeys(FavKeys.TAG_NAME_KEY,
                FavKeys.TAG_CREATED_KEY, FavKeys.TAG_ACCESSED_KEY);
        assertThatThrownBy(() -> Favourite.fromItem(tag.toItem())).isInstanceOf(MalformedItemException.class);
    }

    @Test
    void searchTerms_wordsPrefixesUpToTheCapAndMatching() {
        assertThat(SearchTerms.words("Best PIZZA in Napoli, best!")).containsExactly("best", "pizza", "in", "napoli");
        assertThat(SearchTerms.terms("Pizza in")).containsExactly("p", "pi", "piz", "pizz", "i", "in");
        assertThat(SearchTerms.terms("Internationalisation")).hasSize(SearchTerms.PREFIX_MAX)
                .contains("inte").doesNotContain("inter");
        assertThat(SearchTerms.term("internationalisation")).isEqualTo("inte");
        assertThat(SearchTerms.term("pie")).isEqualTo("pie");
        assertThat(SearchTerms.wordList("Best pizza")).isEqualTo(" best pizza ");
        assertThat(SearchTerms.matches("Best pizza in Napoli", List.of("pizza", "nap"))).isTrue();
        assertThat(SearchTerms.matches("Best pizza in Napoli", List.of("piz", "napoli"))).isFalse();
        assertThat(SearchTerms.matches("Best pizza in Napoli", List.of())).isFalse();
        assertThat(SearchTerms.pick(List.of("in", "pizza", "nap"))).isEqualTo("pizza");
    }
}
