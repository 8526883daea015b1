package io.tally.stream;

import io.tally.core.ShardSettings;
import io.tally.stream.blog.CommentDerivation;
import io.tally.stream.blog.PostDerivation;
import io.tally.stream.blog.UserDerivation;
import io.tally.stream.catalogue.CatalogueItemDerivation;
import io.tally.stream.catalogue.UserItemDerivation;
import io.tally.stream.derive.Derivation;
import io.tally.stream.derive.Derivations;
import java.util.ArrayList;
import java.util.List;

/**
 * The stream processor's one registration point: each domain's derivations. A new domain adds one line here (and
 * one in core's {@code Domains}); the engine, the rebuilder and the verification pick it up from there.
 */
public final class StreamDomains {
    private StreamDomains() {
    }

    /** Every derivation of the application, placed with the deployment's shard counts. */
    public static Derivations derivations(ShardSettings shards) {
        List<Derivation> all = new ArrayList<>();
        all.addAll(blog(shards));
        all.addAll(catalogue(shards));
        return Derivations.of(all, shards.global());
    }

    static List<Derivation> blog(ShardSettings shards) {
        return List.of(new UserDerivation(), new PostDerivation(shards.status()),
                new CommentDerivation());
    }

    static List<Derivation> catalogue(ShardSettings shards) {
        return List.of(new CatalogueItemDerivation(shards.selector()),
                new UserItemDerivation());
    }
}
