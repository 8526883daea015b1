package io.tally.core;

import java.util.List;

/**
 * What one domain declares in core: its base entity types, its own derived types, and the counters it adds to the
 * two derived items every domain shares (a user's stats item and the application-wide totals).
 *
 * @param name           the domain's name, e.g. {@code blog}
 * @param baseTypes      the entity types its writers write
 * @param derivedTypes   the derived item types only it writes
 * @param userCounters   counters it adds to {@code USER#<userId> / #STATS#}, in the read side's order
 * @param globalCounters counters it adds to the global totals, in the read side's order
 */
public record DomainSchema(String name, List<EntityType> baseTypes, List<DerivedType> derivedTypes,
                           List<String> userCounters, List<String> globalCounters) {
    public DomainSchema {
        baseTypes = List.copyOf(baseTypes);
        derivedTypes = List.copyOf(derivedTypes);
        userCounters = List.copyOf(userCounters);
        globalCounters = List.copyOf(globalCounters);
        for (EntityType type : baseTypes) {
            if (type.isDerived()) {
                throw new IllegalArgumentException(name + ": " + type + " is a derived type, not a base type");
            }
        }
    }
}
