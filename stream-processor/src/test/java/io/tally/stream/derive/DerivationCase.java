package io.tally.stream.derive;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Key;
import io.tally.stream.events.DomainEvent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One row of a derivation's table of cases: a change (old image, new image) and what it must derive. The name
 * reads {@code scenario_condition_expectation} and is what the parameterized test shows.
 */
record DerivationCase(String name, Map<String, AttributeValue> oldImage, Map<String, AttributeValue> newImage,
                      Map<CounterRef, Long> deltas, Map<Key, Document> documents, List<DomainEvent> events) {
    static final String RECORD_ID = "c1d0e6f1-7d4b-4c1e-9a55-3f7a4c0e2b11";

    @Override
    public String toString() {
        return name;
    }

    /** What the derivation intends for this change, the way the engine combines it. */
    IntendedChanges derive(Derivation derivation) {
        Contribution before = oldImage == null ? Contribution.NONE : derivation.contribution(oldImage);
        Contribution after = newImage == null ? Contribution.NONE : derivation.contribution(newImage);
        return IntendedChanges.between(before, after, derivation.events(RECORD_ID, oldImage, newImage));
    }

    void assertDerivedBy(Derivation derivation) {
        IntendedChanges changes = derive(derivation);
        assertThat(changes.counterDeltas()).as("counter deltas").isEqualTo(deltas);
        assertThat(changes.documents()).as("documents").isEqualTo(documents);
        assertEvents(changes.events(), events);
    }

    /** Equal events, and each detail's fields in the documented order (map equality ignores order). */
    static void assertEvents(List<DomainEvent> actual, List<DomainEvent> expected) {
        assertThat(actual).as("events").isEqualTo(expected);
        for (int i = 0; i < expected.size(); i++) {
            assertThat(actual.get(i).detail().keySet()).as("detail field order of " + expected.get(i).detailType())
                    .containsExactlyElementsOf(expected.get(i).detail().keySet());
        }
    }

    /** An expected event: {@code eventId} first, then the given field/value pairs in order. */
    static DomainEvent event(String detailType, String subject, Object... fieldsAndValues) {
        String id = DomainEvent.idFor(RECORD_ID, detailType, subject);
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("eventId", id);
        for (int i = 0; i < fieldsAndValues.length; i += 2) {
            detail.put((String) fieldsAndValues[i], fieldsAndValues[i + 1]);
        }
        return new DomainEvent(id, detailType, detail);
    }

    /** Ordered counter deltas from counter/delta pairs. */
    static Map<CounterRef, Long> deltas(Object... countersAndDeltas) {
        Map<CounterRef, Long> deltas = new LinkedHashMap<>();
        for (int i = 0; i < countersAndDeltas.length; i += 2) {
            deltas.put((CounterRef) countersAndDeltas[i], ((Number) countersAndDeltas[i + 1]).longValue());
        }
        return deltas;
    }

    /** A copy of an image with some attributes replaced ({@code null} removes one). */
    static Map<String, AttributeValue> with(Map<String, AttributeValue> image, Object... namesAndValues) {
        Map<String, AttributeValue> copy = new LinkedHashMap<>(image);
        for (int i = 0; i < namesAndValues.length; i += 2) {
            String name = (String) namesAndValues[i];
            AttributeValue value = (AttributeValue) namesAndValues[i + 1];
            if (value == null) {
                copy.remove(name);
            } else {
                copy.put(name, value);
            }
        }
        return copy;
    }
}
