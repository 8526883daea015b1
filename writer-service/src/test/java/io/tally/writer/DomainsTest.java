package io.tally.writer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.http.Json;
import java.util.LinkedHashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DomainsTest {
    @Test
    void all_matchesCoresDomainsInOrder() {
        assertThat(Domains.ALL).extracting(Domains.Domain::schema)
                .containsExactlyElementsOf(io.tally.core.domains.Domains.ALL);
    }

    @Test
    void globalStatsParts_composedInDomainOrder_giveTheContractsShape() {
        var json = Json.object();
        Domains.ALL.forEach(domain -> domain.globalStats().render(json, counter -> counter.length()));
        assertThat(json.toString()).isEqualTo("{\"users\":5,\"posts\":{\"created\":12,\"updated\":12,\"deleted\":12},"
                + "\"comments\":8,\"items\":5,\"completed\":9,\"orgs\":4,\"employees\":9,\"downloads\":9,"
                + "\"favourites\":10}");
    }

    @Test
    void globalStatsParts_readEveryDeclaredGlobalCounterAndNoOther() {
        Set<String> read = new LinkedHashSet<>();
        Domains.ALL.forEach(domain -> domain.globalStats().render(Json.object(), counter -> {
            read.add(counter);
            return 0;
        }));
        assertThat(read).containsExactlyElementsOf(io.tally.core.domains.Domains.GLOBAL_STATS.counters());
    }
}
