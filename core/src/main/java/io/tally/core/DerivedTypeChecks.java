package io.tally.core;

import java.util.HashSet;
import java.util.Set;

/**
 * What a {@link DerivedType} declaration must hold, checked once when it is built: a type that cannot be written
 * right fails where it is declared, naming the rule, not on the first record that writes it.
 */
final class DerivedTypeChecks {
    private DerivedTypeChecks() {
    }

    static void check(DerivedType type) {
        String name = type.name();
        Set<String> seen = new HashSet<>();
        for (String attribute : type.attributes()) {
            if (!seen.add(attribute)) {
                throw new IllegalArgumentException(name + " declares '" + attribute + "' twice");
            }
            if (DerivedType.isReserved(attribute)) {
                throw new IllegalArgumentException(name + " declares the reserved attribute '" + attribute + "'");
            }
        }
        for (String family : type.counterFamilies()) {
            for (String attribute : type.attributes()) {
                if (attribute.startsWith(family)) {
                    throw new IllegalArgumentException(name + ": '" + attribute + "' falls in the counter family '"
                            + family + "*'");
                }
            }
        }
        if (!type.document().containsAll(type.indexKeys())) {
            throw new IllegalArgumentException(name + ": index keys are document fields: " + type.indexKeys());
        }
        if (type.hasOpenCounters() && !type.counters().isEmpty()) {
            throw new IllegalArgumentException(name + ": the domains that share it declare its counters");
        }
        if (type.hasConstantDocument() && (type.isShared() || type.document().isEmpty()
                || type.counters().isEmpty())) {
            throw new IllegalArgumentException(name + ": a constant document is an entry's, beside its counters, on an"
                    + " item that is not shared");
        }
        if (type.isSlotted() && (!type.document().isEmpty()
                || !type.key("0").pk().endsWith(DerivedType.SLOT_SEPARATOR + "0"))) {
            throw new IllegalArgumentException(name + ": a slotted type holds counters only, and its partition key"
                    + " ends with its slot ('" + DerivedType.SLOT_SEPARATOR + "<slot>'), slot 0 where a derivation"
                    + " addresses it");
        }
    }
}
