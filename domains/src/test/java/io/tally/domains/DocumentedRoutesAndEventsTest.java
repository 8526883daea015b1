package io.tally.domains;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.tally.core.ShardSettings;
import io.tally.core.domain.Domain;
import io.tally.core.domain.RouteContext;
import io.tally.core.events.EventType;
import io.tally.core.http.Router;
import io.tally.domains.blog.Blog;
import io.tally.domains.catalogue.Catalogue;
import io.tally.domains.songs.Songs;
import java.lang.reflect.RecordComponent;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The blog, the catalogue and songs declare their shapes where they declare their routes and events: every route
 * says what it does and what it answers, and every event a derivation announces is declared with the record its detail
 * is written from, {@code eventId} first.
 */
class DocumentedRoutesAndEventsTest {
    /** Whether each detail type is about public data. */
    private static final Map<Domain, Map<String, Boolean>> EVENTS = Map.of(
            new Blog(), Map.of("PostCreated", true, "PostStatusChanged", true, "CommentAdded", true,
                    "CommentDeleted", true),
            new Catalogue(), Map.of("ItemCompleted", false),
            new Songs(), Map.of("SongAdded", true, "DownloadRefunded", false));

    static Stream<Domain> domains() {
        return EVENTS.keySet().stream();
    }

    @ParameterizedTest
    @MethodSource("domains")
    void everyRoute_hasASummaryAndAShape_andABodyWhereItWrites(Domain domain) {
        Router router = new Router();
        domain.routes(router, new RouteContext(null, "tally", Clock.systemUTC(), null, null, ShardSettings.DEFAULTS,
                null));

        assertThat(router.descriptions()).isNotEmpty().allSatisfy(route -> {
            String name = route.method() + " " + route.template();
            assertThat(route.summary()).as(name).isNotBlank();
            assertThat(route.returns()).as(name).isNotNull();
            assertThat(route.returns().isRecord()).as(name).isTrue();
            assertThat(route.body().isEmpty()).as(name).isEqualTo(route.method().equals("GET")
                    || route.method().equals("DELETE"));
        });
    }

    @ParameterizedTest
    @MethodSource("domains")
    void everyEvent_isDeclaredWithItsDetailRecord_eventIdFirst(Domain domain) {
        List<EventType> events = domain.events();

        assertThat(events.stream().collect(Collectors.toMap(EventType::detailType, EventType::publicData)))
                .isEqualTo(EVENTS.get(domain));
        // A public feed shows that a post has comments, as /posts does, not who wrote them.
        events.stream().filter(event -> event.detailType().startsWith("Comment")).forEach(event ->
                assertThat(event.withheld()).as(event.detailType()).containsExactly("authorId"));
        events.stream().filter(event -> !event.detailType().startsWith("Comment")).forEach(event ->
                assertThat(event.withheld()).as(event.detailType()).isEmpty());
        for (EventType event : events) {
            // Jackson writes a record's components in their declared order; an annotation may only repeat it.
            String[] components = Arrays.stream(event.detail().getRecordComponents()).map(RecordComponent::getName)
                    .toArray(String[]::new);
            assertThat(components).as(event.detailType()).startsWith("eventId");
            JsonPropertyOrder order = event.detail().getAnnotation(JsonPropertyOrder.class);
            if (order != null) {
                assertThat(order.value()).as(event.detailType()).containsExactly(components);
            }
        }
    }
}
