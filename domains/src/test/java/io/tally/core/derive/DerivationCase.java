package io.tally.core.derive;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Key;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.events.DomainEvent;
import io.tally.core.users.UserStatsEvents;
import io.tally.core.users.Users;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One row of a derivation's table of cases: a change (old image, new image) and what it must derive. The name
 * reads {@code scenario_condition_expectation} and is what the parameterized test shows.
 */
public record DerivationCase(String name, Map<String, AttributeValue> oldImage, Map<String, AttributeValue> newImage,
                      Map<CounterRef, Long> deltas, Map<Key, Document> documents, List<DomainEvent> events) {
    public static final String RECORD_ID = "c1d0e6f1-7d4b-4c1e-9a55-3f7a4c0e2b11";

    @Override
    public String toString() {
        return name;
    }

    /** The application's domains, whose counter events every change announces. */
    public static final DomainRegistry REGISTRY = DomainRegistry.load();

    /**
     * What the derivation intends for this change, the way the engine has it derived: through the registry's
     * {@link Derivations}, which adds the events of the counter deltas ({@code UserStatsChanged}).
     */
    public IntendedChanges derive(Derivation derivation) {
        return Derivations.of(REGISTRY, List.of(derivation), 1)
                .derive(derivation.entityType(), RECORD_ID, oldImage, newImage);
    }

    /** As {@link #assertDerivedBy(Derivation)}, and the change asks for exactly these cascades. */
    public void assertDerivedBy(Derivation derivation, List<?> cascades) {
        assertDerivedBy(derivation);
        assertThat(derive(derivation).cascades()).as("cascades").isEqualTo(cascades);
    }

    public void assertDerivedBy(Derivation derivation) {
        IntendedChanges changes = derive(derivation);
        assertThat(changes.counterDeltas()).as("counter deltas").isEqualTo(deltas);
        assertThat(changes.documents()).as("documents").isEqualTo(documents);
        assertThat(changes.problems()).as("problems").isEmpty();
        // The derivation's own events, then the stats changes its counter deltas announce.
        List<DomainEvent> expected = new ArrayList<>(events);
        expected.addAll(new UserStatsEvents(REGISTRY.counters(Users.USER_STATS)).announce(RECORD_ID, deltas));
        assertEvents(changes.events(), expected);
    }

    /**
     * An unreadable image, on either side of a change, is reported as a problem (so the record is dead-lettered) and
     * contributes nothing, as in a rebuild; nothing else is derived from it.
     */
    public static void assertUnreadable(Derivation derivation, Map<String, AttributeValue> image) {
        IntendedChanges inserted = derivation.derive(RECORD_ID, null, image);
        assertThat(inserted.problems()).singleElement().asString().startsWith("new image: MalformedItemException");
        assertThat(inserted.counterDeltas()).isEmpty();
        assertThat(inserted.documents()).isEmpty();
        assertThat(inserted.events()).isEmpty();
        IntendedChanges removed = derivation.derive(RECORD_ID, image, null);
        assertThat(removed.problems()).singleElement().asString().startsWith("old image: MalformedItemException");
        assertThat(removed.counterDeltas()).isEmpty();
        assertThat(removed.events()).isEmpty();
    }

    /** Equal events, and each detail's fields in the documented order (map equality ignores order). */
    public static void assertEvents(List<DomainEvent> actual, List<DomainEvent> expected) {
        assertThat(actual).as("events").isEqualTo(expected);
        for (int i = 0; i < expected.size(); i++) {
            assertThat(actual.get(i).detail().keySet()).as("detail field order of " + expected.get(i).detailType())
                    .containsExactlyElementsOf(expected.get(i).detail().keySet());
        }
    }

    /** An expected event: {@code eventId} first, then the given field/value pairs in order. */
    public static DomainEvent event(String detailType, String subject, Object... fieldsAndValues) {
        String id = DomainEvent.idFor(RECORD_ID, detailType, subject);
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("eventId", id);
        for (int i = 0; i < fieldsAndValues.length; i += 2) {
            detail.put((String) fieldsAndValues[i], fieldsAndValues[i + 1]);
        }
        return new DomainEvent(id, detailType, detail);
    }

    /** Ordered counter deltas from counter/delta pairs. */
    public static Map<CounterRef, Long> deltas(Object... countersAndDeltas) {
        Map<CounterRef, Long> deltas = new LinkedHashMap<>();
        for (int i = 0; i < countersAndDeltas.length; i += 2) {
            deltas.put((CounterRef) countersAndDeltas[i], ((Number) countersAndDeltas[i + 1]).longValue());
        }
        return deltas;
    }

    /** A copy of an image with some attributes replaced ({@code null} removes one). */
    public static Map<String, AttributeValue> with(Map<String, AttributeValue> image, Object... namesAndValues) {
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
