package io.tally.domains.favs;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * How titles are searched (function 10 of seed 004): a title's words are its runs of letters and digits, lower case;
 * each word has an entry under each of its prefixes of up to {@value #PREFIX_MAX} characters (a shorter word is its
 * own longest prefix), so a query word of any length finds its candidates in one index partition, that of its first
 * {@value #PREFIX_MAX} characters, and the title's word list settles the rest.
 */
public final class SearchTerms {
    /** The longest prefix with entries: a bound on the entries (and the writes) of one title. */
    public static final int PREFIX_MAX = 4;

    private SearchTerms() {
    }

    /** The distinct words of a text, in order of appearance. */
    public static List<String> words(String text) {
        Set<String> words = new LinkedHashSet<>();
        StringBuilder word = new StringBuilder();
        text.codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c)) {
                word.appendCodePoint(c);
            } else if (word.length() > 0) {
                words.add(word.toString().toLowerCase(Locale.ROOT));
                word.setLength(0);
            }
        });
        if (word.length() > 0) {
            words.add(word.toString().toLowerCase(Locale.ROOT));
        }
        return List.copyOf(words);
    }

    /** The search terms of a title: every prefix of up to {@value #PREFIX_MAX} characters of each word, once. */
    public static Set<String> terms(String title) {
        Set<String> terms = new LinkedHashSet<>();
        for (String word : words(title)) {
            int length = word.codePointCount(0, word.length());
            for (int n = 1; n <= Math.min(length, PREFIX_MAX); n++) {
                terms.add(word.substring(0, word.offsetByCodePoints(0, n)));
            }
        }
        return terms;
    }

    /** The term under which a query word's candidates are listed: its first {@value #PREFIX_MAX} characters. */
    public static String term(String word) {
        int length = word.codePointCount(0, word.length());
        return length <= PREFIX_MAX ? word : word.substring(0, word.offsetByCodePoints(0, PREFIX_MAX));
    }

    /** The word list a search entry holds: each word between single spaces, so that a word is found as " w ". */
    public static String wordList(String title) {
        return " " + String.join(" ", words(title)) + " ";
    }

    /**
     * Whether a title holds every word of a query, the last as a prefix (case-insensitive); the definition the search
     * route's filter implements, for tests.
     */
    public static boolean matches(String title, List<String> query) {
        String list = wordList(title);
        for (int i = 0; i < query.size(); i++) {
            String needle = i == query.size() - 1 ? " " + query.get(i) : " " + query.get(i) + " ";
            if (!list.contains(needle)) {
                return false;
            }
        }
        return !query.isEmpty();
    }

    /** The query word whose partition is read: the longest (usually the fewest candidates), the first on a tie. */
    public static String pick(List<String> query) {
        List<String> sorted = new ArrayList<>(query);
        String best = sorted.get(0);
        for (String word : sorted) {
            if (word.length() > best.length()) {
                best = word;
            }
        }
        return best;
    }
}
