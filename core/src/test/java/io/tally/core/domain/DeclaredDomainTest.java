package io.tally.core.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.Key;
import io.tally.core.SharedCounter;
import io.tally.core.demo.DemoApi;
import io.tally.core.demo.DemoLoad;
import io.tally.core.events.DomainEvent;
import io.tally.core.events.EventType;
import io.tally.core.workload.WorkloadContext;
import io.tally.core.workload.WorkloadPart;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A domain written as a declaration answers the SPI with what it declared, in order, and nothing else. */
class DeclaredDomainTest {
    static final EntityType NOTE = EntityType.base("Note");
    static final EntityType NOTE_REF = EntityType.base("NoteRef");
    static final DerivedType NOTE_STATS = DerivedType.named("NoteStats")
            .key("NOTE#<id> / #STATS#", id -> new Key("NOTE#" + id, "#STATS#")).counters("notes").build();
    static final DerivedType SHARED = DerivedType.named("SharedThing")
            .key("S#<id> / #S#", id -> new Key("S#" + id, "#S#")).openCounters().build();
    static final SharedCounter FIRST = SharedCounter.of(SHARED, "first");
    static final SharedCounter SECOND = SharedCounter.of(SHARED, "second");

    record NoteDetail(String eventId, String noteId) {
    }

    record OtherDetail(String eventId) {
    }

    static final EventType NOTE_ADDED = EventType.publicEvent("NoteAdded", NoteDetail.class);
    static final EventType NOTE_REMOVED = EventType.of("NoteRemoved", NoteDetail.class);

    static final class Notes extends DeclaredDomain {
        Notes() {
            this(Declaration.of("notes"));
        }

        Notes(Declaration declaration) {
            super(declaration);
        }
    }

    static final class Load implements DemoLoad {
        @Override
        public int weight() {
            return 1;
        }

        @Override
        public DemoApi.Reply write(DemoApi api, Random random) {
            return null;
        }
    }

    static final class Part implements WorkloadPart {
        final WorkloadContext context;

        Part(WorkloadContext context) {
            this.context = context;
        }

        @Override
        public int weight() {
            return 1;
        }

        @Override
        public void step() {
        }
    }

    /** A context no part here uses: each of its methods fails. */
    private static WorkloadContext context() {
        return (WorkloadContext) Proxy.newProxyInstance(WorkloadContext.class.getClassLoader(),
                new Class<?>[] {WorkloadContext.class}, (proxy, method, args) -> {
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void answersWithWhatItDeclaredInOrder() {
        Notes notes = new Notes(Declaration.of("notes")
                .requires("users", "catalogue")
                .entityTypes(NOTE, NOTE_REF)
                .derivedTypes(NOTE_STATS)
                .sharedCounters(SECOND)
                .sharedCounters(FIRST)
                .lookup(NOTE, id -> new Key("NOTE#" + id, "#NOTE#"))
                .events(NOTE_ADDED, NOTE_REMOVED)
                .dashboard(List.of(DashboardSection.totals("/stats/global",
                        DashboardSection.Figure.tile("Notes", "global.notes", "notes")))));

        assertThat(notes.name()).isEqualTo("notes");
        assertThat(notes.requires()).containsExactly("users", "catalogue");
        assertThat(notes.entityTypes()).containsExactly(NOTE, NOTE_REF);
        assertThat(notes.derivedTypes()).containsExactly(NOTE_STATS);
        assertThat(notes.sharedCounters()).containsExactly(SECOND, FIRST);
        assertThat(notes.lookups()).singleElement().satisfies(lookup -> {
            assertThat(lookup.type()).isEqualTo(NOTE);
            assertThat(lookup.key("n1")).isEqualTo(new Key("NOTE#n1", "#NOTE#"));
        });
        assertThat(notes.events()).extracting(EventType::detailType).containsExactly("NoteAdded", "NoteRemoved");
        assertThat(notes.events()).extracting(EventType::publicData).containsExactly(true, false);
        assertThat(notes.dashboard()).singleElement().extracting(DashboardSection::path).isEqualTo("/stats/global");
        assertThat(notes.toString()).isEqualTo("domain notes");
        assertThatThrownBy(() -> notes.entityTypes().add(NOTE)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void makesANewDemoLoadAndWorkloadPartEachTimeAndRunsItsSeed() throws Exception {
        List<String> seeded = new ArrayList<>();
        Notes notes = new Notes(Declaration.of("notes")
                .demoSeed(api -> seeded.add("seeded"))
                .demoLoad(Load::new)
                .workload(Part::new));

        assertThat(notes.demoLoad()).get().isInstanceOf(Load.class);
        assertThat(notes.demoLoad().orElseThrow()).isNotSameAs(notes.demoLoad().orElseThrow());
        WorkloadContext context = context();
        assertThat(notes.workload(context)).get().isInstanceOfSatisfying(Part.class,
                part -> assertThat(part.context).isSameAs(context));
        notes.demoSeed(null);
        assertThat(seeded).containsExactly("seeded");
    }

    @Test
    void declaresNothingItWasNotGiven() throws Exception {
        Notes notes = new Notes();

        assertThat(notes.requires()).isEmpty();
        assertThat(notes.entityTypes()).isEmpty();
        assertThat(notes.derivedTypes()).isEmpty();
        assertThat(notes.sharedCounters()).isEmpty();
        assertThat(notes.lookups()).isEmpty();
        assertThat(notes.events()).isEmpty();
        assertThat(notes.dashboard()).isEmpty();
        assertThat(notes.demoLoad()).isEmpty();
        assertThat(notes.workload(context())).isEmpty();
        notes.demoSeed(null);
    }

    @Test
    void refusesANullAmongItsFacts() {
        assertThatThrownBy(() -> Declaration.of("notes").entityTypes(NOTE, null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("notes");
        assertThatThrownBy(() -> Declaration.of(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void anEventIsAboutItsSubjectWithTheDetailOfItsType() {
        DomainEvent event = DomainEvent.about("rec-1", NOTE_ADDED, "n1", id -> new NoteDetail(id, "n1"));

        assertThat(event.id()).isEqualTo("rec-1:NoteAdded:n1");
        assertThat(event.detailType()).isEqualTo("NoteAdded");
        assertThat(event.detail()).containsEntry("eventId", "rec-1:NoteAdded:n1").containsEntry("noteId", "n1");
        assertThatThrownBy(() -> DomainEvent.about("rec-1", NOTE_ADDED, "n1", OtherDetail::new))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NoteAdded").hasMessageContaining("OtherDetail");
    }
}
