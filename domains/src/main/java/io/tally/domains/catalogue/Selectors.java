package io.tally.domains.catalogue;

import java.util.regex.Pattern;

/**
 * Selectors of catalogue items (seed 003): {@code global-cycle:<n>} releases an item to everyone in week n,
 * {@code user-cycle:<n>} reserves it for week n of a user's journey, {@code back-catalogue} puts it in the
 * catalogue, whose index partition is sharded over several keys.
 */
public final class Selectors {
    public static final String BACK_CATALOGUE = "back-catalogue";
    private static final Pattern CYCLE = Pattern.compile("(global-cycle|user-cycle):(0|[1-9][0-9]{0,8})");

    private Selectors() {
    }

    public static boolean isValid(String selector) {
        return selector != null && (BACK_CATALOGUE.equals(selector) || CYCLE.matcher(selector).matches());
    }

    public static String describeRule() {
        return "selector must be one of global-cycle:<n>, user-cycle:<n> (n a whole number 0..999999999) or back-catalogue";
    }
}
