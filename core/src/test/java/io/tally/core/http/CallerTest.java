package io.tally.core.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A caller from the claims API Gateway's JWT authorizer hands over (payload 2.0: every value a string, an array as
 * {@code [a b]}): groups and scopes are whole names, and only access tokens make a caller.
 */
class CallerTest {
    private static Map<String, String> claims(String groupsClaim) {
        Map<String, String> claims = new LinkedHashMap<>();
        claims.put("sub", "u1");
        claims.put("iss", "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_example");
        claims.put("client_id", "exampleclientid");
        claims.put("token_use", "access");
        claims.put("scope", "aws.cognito.signin.user.admin");
        claims.put("exp", "4102444800");
        if (groupsClaim != null) {
            claims.put("cognito:groups", groupsClaim);
        }
        return claims;
    }

    /** A token whose payload holds {@code groups} as the JSON array it is (the signature is API Gateway's concern). */
    private static String token(Map<String, String> claims, String... groups) {
        ObjectNode payload = Json.object();
        claims.forEach((name, value) -> {
            if (!name.equals("cognito:groups") && !name.equals("exp")) {
                payload.put(name, value);
            }
        });
        payload.put("exp", 4102444800L);
        var array = payload.putArray("cognito:groups");
        for (String group : groups) {
            array.add(group);
        }
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        return base64.encodeToString("{\"alg\":\"RS256\",\"kid\":\"k1\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + base64.encodeToString(payload.toString().getBytes(StandardCharsets.UTF_8)) + ".c2lnbmF0dXJl";
    }

    @ParameterizedTest
    @ValueSource(strings = {"[ops,admin]", "[\"admin\"]", "[not admin]", "[admins]", "[Admin]", "[ admin]",
            "[admin ]", "ops,admin", "\"admin\"", "not admin", "[]", "", "admin,ops"})
    void aGroupClaim_thatIsNotTheWholeNameAdmin_isNotAdmin_fromTheClaimsAlone(String rendered) {
        assertThat(Caller.fromClaims(claims(rendered), null).isAdmin()).isFalse();
    }

    @Test
    void theClaimsAlone_readOneNameOrAStringClaim_andGrantNoGroupFromAListTheyCannotSplit() {
        assertThat(Caller.fromClaims(claims("[admin]"), null).groups()).containsExactly("admin");
        assertThat(Caller.fromClaims(claims("admin"), null).groups()).as("a string claim").containsExactly("admin");
        assertThat(Caller.fromClaims(claims("[ops,admin]"), null).groups()).containsExactly("ops,admin");
        assertThat(Caller.fromClaims(claims("[\"admin\"]"), null).groups()).containsExactly("\"admin\"");
        // ["staff","admin"] and ["staff admin"] arrive alike: without the token, neither grants anything.
        assertThat(Caller.fromClaims(claims("[staff admin]"), null).groups()).isEmpty();
        assertThat(Caller.fromClaims(claims(null), null).groups()).isEmpty();
    }

    @Test
    void withTheVerifiedToken_theGroupsAreItsArray_eachNameWhole() {
        Map<String, String> twoGroups = claims("[staff admin]");
        Caller admin = Caller.fromClaims(twoGroups, null, "Bearer " + token(twoGroups, "staff", "admin"));
        assertThat(admin.groups()).containsExactlyInAnyOrder("staff", "admin");
        assertThat(admin.isAdmin()).isTrue();
        assertThat(Caller.fromClaims(twoGroups, null, token(twoGroups, "staff", "admin")).isAdmin())
                .as("a bare token, as the authorizer takes it too").isTrue();

        Map<String, String> oneGroup = claims("[not admin]");
        Caller notAdmin = Caller.fromClaims(oneGroup, null, "Bearer " + token(oneGroup, "not admin"));
        assertThat(notAdmin.groups()).containsExactly("not admin");
        assertThat(notAdmin.isAdmin()).isFalse();
    }

    @Test
    void aTokenThatIsNotTheVerifiedOne_isNotBelieved() {
        Map<String, String> verified = claims("[staff admin]");
        Map<String, String> someoneElse = new LinkedHashMap<>(verified);
        someoneElse.put("sub", "u2");
        assertThat(Caller.fromClaims(verified, null, "Bearer " + token(someoneElse, "staff", "admin")).groups())
                .as("another subject's token: the claims alone, which cannot be split").isEmpty();
        Map<String, String> staffOnly = claims("[staff]");
        assertThat(Caller.fromClaims(staffOnly, null, "Bearer " + token(staffOnly, "admin")).isAdmin())
                .as("the same subject, other groups than those verified").isFalse();
        assertThat(Caller.fromClaims(staffOnly, null, "Bearer not.a.jwt").groups()).containsExactly("staff");
        assertThat(Caller.fromClaims(staffOnly, null, "Basic dTE6cHc=").groups()).containsExactly("staff");
    }

    @Test
    void scopes_areWholeNames_fromTheListAndTheSpaceSeparatedClaim() {
        Map<String, String> claims = claims(null);
        claims.put("scope", "openid admin");
        assertThat(Caller.fromClaims(claims, null).isAdmin()).isTrue();
        claims.put("scope", "openid,admin");
        assertThat(Caller.fromClaims(claims, null).isAdmin()).isFalse();
        claims.put("scope", "[admin]");
        assertThat(Caller.fromClaims(claims, null).isAdmin()).isFalse();
        claims.put("scope", "openid");
        assertThat(Caller.fromClaims(claims, List.of("admin")).isAdmin()).isTrue();
        assertThat(Caller.fromClaims(claims, List.of("not admin", "ops,admin")).isAdmin()).isFalse();
        assertThat(Caller.fromClaims(claims, List.of("openid", "email")).scopes())
                .isEqualTo(Set.of("openid", "email"));
    }

    @Test
    void onlyAccessTokens_makeACaller() {
        Map<String, String> access = claims("[admin]");
        assertThat(Caller.fromClaims(access, null).subject()).isEqualTo("u1");
        Map<String, String> id = claims("[admin]");
        id.put("token_use", "id");
        id.remove("client_id");
        id.put("aud", "exampleclientid");
        assertThat(Caller.fromClaims(id, null)).as("a Cognito ID token").isEqualTo(Caller.ANONYMOUS);
        Map<String, String> other = claims("[admin]");
        other.put("token_use", "ACCESS");
        assertThat(Caller.fromClaims(other, null)).isEqualTo(Caller.ANONYMOUS);
        Map<String, String> oidc = claims("[admin]");
        oidc.remove("token_use");
        assertThat(Caller.fromClaims(oidc, null).subject()).as("another issuer's token, without token_use")
                .isEqualTo("u1");
    }

    @Test
    void noClaimsOrNoSubject_isAnonymous() {
        assertThat(Caller.fromClaims(null, null)).isEqualTo(Caller.ANONYMOUS);
        Map<String, String> claims = claims("[admin]");
        claims.remove("sub");
        assertThat(Caller.fromClaims(claims, List.of("admin"))).isEqualTo(Caller.ANONYMOUS);
    }
}
