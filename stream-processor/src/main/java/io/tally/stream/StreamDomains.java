package io.tally.stream;

import io.tally.core.ShardSettings;
import io.tally.stream.blog.CommentDerivation;
import io.tally.stream.blog.PostDerivation;
import io.tally.stream.blog.UserDerivation;
import io.tally.stream.catalogue.CatalogueItemDerivation;
import io.tally.stream.catalogue.UserItemDerivation;
import io.tally.core.derive.CascadeRunner;
import io.tally.core.derive.Derivation;
import io.tally.core.derive.Derivations;
import io.tally.stream.favs.DynamoDbLinkCascades;
import io.tally.stream.favs.FavouriteDerivation;
import io.tally.stream.favs.FavouriteLinks;
import io.tally.stream.favs.FavouriteTagDerivation;
import io.tally.stream.favs.TagDerivation;
import io.tally.stream.favs.TagLinks;
import io.tally.stream.orgs.DynamoDbMembershipCascades;
import io.tally.stream.orgs.EmployeeDerivation;
import io.tally.stream.orgs.EmployeeMemberships;
import io.tally.stream.orgs.MembershipDerivation;
import io.tally.stream.orgs.OrganisationDerivation;
import io.tally.stream.orgs.TeamDerivation;
import io.tally.stream.orgs.TeamMemberships;
import io.tally.stream.songs.DownloadDerivation;
import io.tally.stream.songs.SongDerivation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The stream processor's one registration point: each domain's derivations, and the runners of the cascades some of
 * them ask for. A new domain adds one line here (and one in core's {@code Domains}); the engine, the rebuilder and
 * the verification pick it up from there.
 */
public final class StreamDomains {
    private StreamDomains() {
    }

    /** Every derivation of the application, placed with the deployment's shard counts. */
    public static Derivations derivations(ShardSettings shards) {
        List<Derivation> all = new ArrayList<>();
        all.addAll(blog(shards));
        all.addAll(catalogue(shards));
        all.addAll(orgs());
        all.addAll(songs());
        all.addAll(favourites());
        return Derivations.of(all, shards.global());
    }

    /** Who carries out each kind of cascade, over the table (the rebuilder needs none: it only reads). */
    public static CascadeRunner cascades(DynamoDbClient dynamo, String table) {
        CascadeRunner memberships = new DynamoDbMembershipCascades(dynamo, table);
        CascadeRunner links = new DynamoDbLinkCascades(dynamo, table);
        return CascadeRunner.byType(Map.of(TeamMemberships.class, memberships, EmployeeMemberships.class, memberships,
                FavouriteLinks.class, links, TagLinks.class, links));
    }

    static List<Derivation> blog(ShardSettings shards) {
        return List.of(new UserDerivation(), new PostDerivation(shards.status()), new CommentDerivation());
    }

    static List<Derivation> catalogue(ShardSettings shards) {
        return List.of(new CatalogueItemDerivation(shards.selector()), new UserItemDerivation());
    }

    static List<Derivation> orgs() {
        return List.of(new OrganisationDerivation(), new TeamDerivation(), new EmployeeDerivation(),
                new MembershipDerivation());
    }

    static List<Derivation> songs() {
        return List.of(new SongDerivation(), new DownloadDerivation());
    }

    static List<Derivation> favourites() {
        return List.of(new TagDerivation(), new FavouriteDerivation(), new FavouriteTagDerivation());
    }
}
