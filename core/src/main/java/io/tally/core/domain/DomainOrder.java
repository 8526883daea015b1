package io.tally.core.domain;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.regex.Pattern;

/**
 * The order of the registry's domains: each after the domains it {@link Domain#requires requires}, otherwise in the
 * order found. Refused: a name that is not a lower-case word, two domains of one name, a required domain that is
 * missing, and domains that require each other.
 */
final class DomainOrder {
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,31}");

    private DomainOrder() {
    }

    /** Each domain after the domains it requires; otherwise in the order found. */
    static List<Domain> ordered(List<Domain> found, BiFunction<Domain, String, IllegalStateException> invalid) {
        Map<String, Domain> byName = new LinkedHashMap<>();
        for (Domain domain : found) {
            if (domain.name() == null || !NAME.matcher(domain.name()).matches()) {
                throw new IllegalStateException(domain.getClass().getName() + ": a domain's name is a lower-case word, not '"
                        + domain.name() + "'");
            }
            if (byName.put(domain.name(), domain) != null) {
                throw invalid.apply(domain, "two domains are named '" + domain.name() + "'");
            }
        }
        Set<String> placed = new LinkedHashSet<>();
        List<Domain> ordered = new ArrayList<>();
        for (Domain domain : found) {
            place(domain, byName, placed, new LinkedHashSet<>(), ordered, invalid);
        }
        return ordered;
    }

    private static void place(Domain domain, Map<String, Domain> byName, Set<String> placed, Set<String> visiting,
                              List<Domain> ordered, BiFunction<Domain, String, IllegalStateException> invalid) {
        if (placed.contains(domain.name())) {
            return;
        }
        if (!visiting.add(domain.name())) {
            throw invalid.apply(domain, "the domains it requires require it in turn: " + visiting);
        }
        for (String name : domain.requires()) {
            Domain required = byName.get(name);
            if (required == null) {
                throw invalid.apply(domain, "it requires the domain '" + name + "', which is not on the class path (domains: "
                        + byName.keySet() + ")");
            }
            place(required, byName, placed, visiting, ordered, invalid);
        }
        visiting.remove(domain.name());
        placed.add(domain.name());
        ordered.add(domain);
    }
}
