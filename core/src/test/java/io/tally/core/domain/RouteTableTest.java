package io.tally.core.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.http.Access;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Router;
import java.util.List;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;

/** The registry composes every domain's routes as it loads, and refuses what the router or the document would confuse. */
class RouteTableTest {
    /** Two records of one simple name, as two domains' {@code Stats} would be. */
    static final class Shelves {
        record Stats(long shelves) {
        }
    }

    static final class Lamps {
        record Stats(long lamps) {
        }

        record Page(List<Shelves.Stats> shelves, Stats lamps) {
        }

        record Lamp(String id, Shelves.Stats shelf) {
        }
    }

    private static Domain domain(String name, BiConsumer<Router, RouteContext> routes) {
        return new Domain() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void routes(Router router, RouteContext context) {
                routes.accept(router, context);
            }
        };
    }

    private static BiConsumer<Router, RouteContext> get(String path, Class<?> returns) {
        return (router, context) -> router.add("GET", path, Access.READ_SIDE, request -> ApiResponse.ok("{}"))
                .returns(200, returns);
    }

    @Test
    void distinctRoutesAndShapes_load_andComposeInTheRegistrysOrder() {
        DomainRegistry registry = DomainRegistry.of(domain("shelves", get("/shelves/{id}", Shelves.Stats.class)),
                domain("lamps", get("/shelves/{id}/lamps", Lamps.Lamp.class)));
        Router router = new Router();
        RouteTable.compose(router, new RouteContext(null, "t", null, null, null, null, registry));
        assertThat(router.descriptions()).extracting(Router.Description::template)
                .containsExactly("/shelves/{id}", "/shelves/{id}/lamps");
    }

    @Test
    void aSecondRouteOfOneMethodAndPath_failsTheLoad_namingItsDomain() {
        assertThatThrownBy(() -> DomainRegistry.of(domain("shelves", get("/shelves/{id}", Shelves.Stats.class)),
                domain("racks", get("/shelves/{rackId}", Shelves.Stats.class))))
                .hasMessageContaining("domain 'racks'")
                .hasMessageContaining("two routes GET /shelves/{id} and GET /shelves/{rackId}");
        assertThatThrownBy(() -> DomainRegistry.of(domain("shelves", (router, context) -> {
            get("/shelves", Shelves.Stats.class).accept(router, context);
            get("/shelves", Shelves.Stats.class).accept(router, context);
        }))).hasMessageContaining("domain 'shelves'").hasMessageContaining("the first would answer both");
    }

    @Test
    void twoAnswersOfOneSimpleName_failTheLoad_namingBothRecords_evenWhenOneIsNested() {
        assertThatThrownBy(() -> DomainRegistry.of(domain("shelves", get("/shelves", Shelves.Stats.class)),
                domain("lamps", get("/lamps", Lamps.Stats.class))))
                .hasMessageContaining("two shapes of the API are named Stats")
                .hasMessageContaining(Shelves.Stats.class.getName()).hasMessageContaining(Lamps.Stats.class.getName());
        assertThatThrownBy(() -> DomainRegistry.of(domain("lamps", get("/lamps", Lamps.Page.class))))
                .hasMessageContaining("two shapes of the API are named Stats");
    }

    @Test
    void aRouteThatReadsTheTableAsItIsAdded_failsTheLoad() {
        assertThatThrownBy(() -> DomainRegistry.of(domain("shelves", (router, context) ->
                context.dynamo().describeTable(DescribeTableRequest.builder().tableName(context.table()).build()))))
                .hasMessageContaining("a route reached the table (describeTable)");
    }
}
