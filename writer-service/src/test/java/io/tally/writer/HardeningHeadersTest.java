package io.tally.writer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.ShardSettings;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Authorization;
import io.tally.testkit.UnreachableDynamoDb;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every answer carries the browser hardening headers; only a public answer may be cached. */
class HardeningHeadersTest {
    private static WriterApi api(boolean publicReadSide) {
        return new WriterApi(UnreachableDynamoDb.client(request -> {
            throw new IllegalStateException("no table here");
        }), "tally", Clock.systemUTC(), WriterConfig.DEVELOPMENT_SECRET, ShardSettings.DEFAULTS, null,
                Authorization.required(publicReadSide));
    }

    private static ApiResponse get(WriterApi api, String path) {
        return api.handle(new ApiRequest("GET", path, Map.of(), Map.of(), Map.of(), null));
    }

    private static void hardened(ApiResponse response) {
        assertThat(response.headers()).containsEntry("Content-Security-Policy", WriterApi.CONTENT_SECURITY_POLICY)
                .containsEntry("X-Content-Type-Options", "nosniff").containsEntry("Referrer-Policy", "no-referrer")
                .containsEntry("X-Frame-Options", "DENY");
        assertThat(WriterApi.CONTENT_SECURITY_POLICY).contains("frame-ancestors 'none'").contains("script-src 'self'")
                .doesNotContain("unsafe-inline");
    }

    @Test
    void aPublicReadSideAnswer_isHardened_andMayBeCached() {
        ApiResponse document = get(api(true), "/openapi.json");
        assertThat(document.status()).isEqualTo(200);
        hardened(document);
        assertThat(document.headers()).doesNotContainKey("Cache-Control");
    }

    @Test
    void aPrivateAnswer_anErrorOfAPrivateRoute_andARefusal_areNeverStored() {
        ApiResponse privateReadSide = get(api(false), "/openapi.json");
        assertThat(privateReadSide.status()).isEqualTo(401);
        hardened(privateReadSide);
        assertThat(privateReadSide.headers()).containsEntry("Cache-Control", "no-store");
        ApiResponse user = get(api(true), "/users/u1");
        assertThat(user.status()).isEqualTo(401);
        hardened(user);
        assertThat(user.headers()).containsEntry("Cache-Control", "no-store");
        ApiResponse unknown = get(api(true), "/no/such/route");
        hardened(unknown);
        assertThat(unknown.headers()).containsEntry("Cache-Control", "no-store");
        ApiResponse refused = api(true).refuse(ApiException.badRequest("bad"), Duration.ZERO);
        hardened(refused);
        assertThat(refused.headers()).containsEntry("Cache-Control", "no-store");
    }

    @Test
    void theDashboardPage_isHardened_andKeepsItsOwnCaching() {
        ApiResponse page = get(api(true), "/dashboard");
        assertThat(page.status()).isEqualTo(200);
        hardened(page);
        assertThat(page.headers()).containsEntry("Cache-Control", "no-cache");
    }
}
