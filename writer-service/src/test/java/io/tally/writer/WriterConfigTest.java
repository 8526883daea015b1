package io.tally.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.ShardSetting;
import io.tally.core.ShardSettings;
import io.tally.domains.blog.BlogKeys;
import io.tally.domains.catalogue.CatalogueKeys;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WriterConfigTest {
    private static Map<String, String> env(String... pairs) {
        Map<String, String> env = new HashMap<>();
        env.put("TABLE_NAME", "tally");
        for (int i = 0; i < pairs.length; i += 2) {
            env.put(pairs[i], pairs[i + 1]);
        }
        return env;
    }

    @Test
    void writeQuota_isTheTableAndRatesTheEnvironmentGives_noTableNoQuota_andABadRateFailsTheStart() {
        assertThat(WriterConfig.fromEnvironment(env()).writeQuota()).isNull();
        var defaults = WriterConfig.fromEnvironment(env("WRITE_QUOTA_TABLE", "tally-quota")).writeQuota();
        assertThat(defaults.table()).isEqualTo("tally-quota");
        assertThat(defaults.rates()).isEqualTo(new io.tally.core.http.WriteQuota.Rates(20, 100, 200, 1_000));
        var given = WriterConfig.fromEnvironment(env("WRITE_QUOTA_TABLE", "q", "WRITE_QUOTA", "5/50",
                "ADMIN_WRITE_QUOTA", "50/500")).writeQuota();
        assertThat(given.rates()).isEqualTo(new io.tally.core.http.WriteQuota.Rates(5, 50, 50, 500));
        for (String bad : List.of("20", "20/", "0/10", "-1/10", "20/100/3", "twenty/100", " 20/100x")) {
            assertThatThrownBy(() -> WriterConfig.fromEnvironment(env("WRITE_QUOTA_TABLE", "q", "WRITE_QUOTA", bad)))
                    .as(bad).isInstanceOf(IllegalStateException.class).hasMessageContaining("WRITE_QUOTA");
        }
    }

    @Test
    void fromEnvironment_noShardSettings_defaultsToFourEach() {
        ShardSettings none = WriterConfig.fromEnvironment(env()).shards();
        assertThat(none).isEqualTo(ShardSettings.DEFAULTS);
        assertThat(List.of(none.count(CatalogueKeys.SELECTOR_SHARDS), none.count(BlogKeys.STATUS_SHARDS), none.global()))
                .containsExactly(4, 4, 4);
        assertThat(WriterConfig.fromEnvironment(env("STATUS_SHARDS", " ")).shards()).isEqualTo(ShardSettings.DEFAULTS);
    }

    @Test
    void fromEnvironment_shardCounts_readsEachVariable() {
        var config = WriterConfig.fromEnvironment(env("SELECTOR_SHARDS", "8", "STATUS_SHARDS", "1", "GLOBAL_SHARDS", "100"));
        assertThat(List.of(config.shards().count(CatalogueKeys.SELECTOR_SHARDS),
                config.shards().count(BlogKeys.STATUS_SHARDS), config.shards().global())).containsExactly(8, 1, 100);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "101", "-1", "four", "4.5", "2147483648"})
    void fromEnvironment_shardCountOutOfRange_refusesToStartNamingTheVariable(String value) {
        assertThatThrownBy(() -> WriterConfig.fromEnvironment(env("GLOBAL_SHARDS", value)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("GLOBAL_SHARDS");
    }

    @Test
    void local_usesTheDefaultShardSettings() {
        assertThat(WriterConfig.local("tally", URI.create("http://127.0.0.1:8000")).shards()).isEqualTo(ShardSettings.DEFAULTS);
    }

    @Test
    void shardSettings_outOfRange_areRefused() {
        assertThatThrownBy(() -> ShardSettings.DEFAULTS.with(CatalogueKeys.SELECTOR_SHARDS, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ShardSettings.DEFAULTS.with(BlogKeys.STATUS_SHARDS, 101))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ShardSetting("STATUS", 4, "x")).hasMessageContaining("ending in _SHARDS");
        assertThatThrownBy(() -> new ShardSetting("X_SHARDS", 0, "x")).isInstanceOf(IllegalArgumentException.class);
        assertThat(BlogKeys.STATUS_SHARDS.parameter()).isEqualTo("StatusShards");
    }

    @Test
    void cursorSecret_namedByArn_isReadFromSecretsManager_notTheEnvironment() {
        Map<String, String> asked = new HashMap<>();
        var config = WriterConfig.fromEnvironment(env("CURSOR_SECRET_ARN", "arn:aws:secretsmanager:eu-west-1:1:secret:c",
                "CURSOR_SECRET", "ignored-when-an-arn-is-given"), arn -> {
                    asked.put("arn", arn);
                    return "rotated-secret-value-0123456789";
                });

        assertThat(asked).containsEntry("arn", "arn:aws:secretsmanager:eu-west-1:1:secret:c");
        assertThat(new String(config.cursorSecret(), StandardCharsets.UTF_8)).isEqualTo("rotated-secret-value-0123456789");
    }

    @Test
    void cursorSecret_unreadable_refusesToStart_ratherThanSignWithAKeyNoOtherFunctionShares() {
        assertThatThrownBy(() -> WriterConfig.fromEnvironment(env("CURSOR_SECRET_ARN", "arn:x"), arn -> {
            throw new IllegalStateException("AccessDenied");
        })).isInstanceOf(IllegalStateException.class).hasMessageContaining("arn:x").hasMessageContaining("AccessDenied");
        assertThatThrownBy(() -> WriterConfig.fromEnvironment(env("CURSOR_SECRET_ARN", "arn:x"), arn -> ""))
                .hasMessageContaining("no string value");
    }

    @Test
    void cursorSecret_inALambdaFunction_isRequired_neverTheDevelopmentKeyAnyoneCanRead() {
        assertThatThrownBy(() -> WriterConfig.fromEnvironment(env("AWS_LAMBDA_FUNCTION_NAME", "tally-writer"),
                arn -> null)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("tally-writer has no cursor secret").hasMessageContaining("CURSOR_SECRET_ARN");
        assertThat(new String(WriterConfig.fromEnvironment(env("AWS_LAMBDA_FUNCTION_NAME", "tally-writer",
                "CURSOR_SECRET", "function-secret-0123456789"), arn -> null).cursorSecret(), StandardCharsets.UTF_8))
                .isEqualTo("function-secret-0123456789");
    }

    @Test
    void cursorSecret_locally_isTheVariablesValue_orTheDevelopmentKey() {
        assertThat(new String(WriterConfig.fromEnvironment(env("CURSOR_SECRET", "local-secret-0123456789"), arn -> {
            throw new AssertionError("no Secrets Manager call without an ARN");
        }).cursorSecret(), StandardCharsets.UTF_8)).isEqualTo("local-secret-0123456789");
        assertThat(WriterConfig.fromEnvironment(env(), arn -> null).cursorSecret())
                .isEqualTo(WriterConfig.DEVELOPMENT_SECRET);
    }

    @Test
    void authorization_isOnByDefault_andReadFromAuthEnabledAndPublicReadSide() {
        assertThat(WriterConfig.fromEnvironment(env()).authorization())
                .as("a function deployed without AUTH_ENABLED is not open")
                .isEqualTo(io.tally.core.http.Authorization.required(true));
        assertThat(WriterConfig.fromEnvironment(env("AUTH_ENABLED", " ")).authorization().enabled()).isTrue();
        assertThat(WriterConfig.fromEnvironment(env("PUBLIC_READ_SIDE", "false")).authorization())
                .isEqualTo(io.tally.core.http.Authorization.required(false));
        assertThat(WriterConfig.fromEnvironment(env("AUTH_ENABLED", "false")).authorization())
                .as("open only when told so").isEqualTo(io.tally.core.http.Authorization.OPEN);
        assertThat(WriterConfig.fromEnvironment(env("AUTH_ENABLED", "false", "PUBLIC_READ_SIDE", "false"))
                .authorization().enabled()).isFalse();
        assertThat(WriterConfig.fromEnvironment(env("AUTH_ENABLED", "true")).authorization())
                .isEqualTo(io.tally.core.http.Authorization.required(true));
        assertThat(WriterConfig.fromEnvironment(env("AUTH_ENABLED", "TRUE", "PUBLIC_READ_SIDE", "false"))
                .authorization()).isEqualTo(io.tally.core.http.Authorization.required(false));
        assertThatThrownBy(() -> WriterConfig.fromEnvironment(env("AUTH_ENABLED", "yes")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("AUTH_ENABLED");
        assertThatThrownBy(() -> WriterConfig.fromEnvironment(env("AUTH_ENABLED", "true", "PUBLIC_READ_SIDE", "1")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("PUBLIC_READ_SIDE");
    }
    @Test
    void aFunctionDeployedWithoutAuthEnabled_refusesAWriteWithoutAToken_beforeTouchingTheTable() {
        WriterHandler handler = new WriterHandler(WriterConfig.fromEnvironment(env("DYNAMODB_ENDPOINT",
                "http://127.0.0.1:9"), arn -> null));
        var event = com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent.builder()
                .withRawPath("/users")
                .withBody("{\"userId\":\"u1\",\"name\":\"One\",\"email\":\"one@example.com\"}")
                .withRequestContext(com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent.RequestContext
                        .builder().withHttp(com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent
                                .RequestContext.Http.builder().withMethod("POST").build()).build())
                .build();
        var response = handler.handleRequest(event, null);
        assertThat(response.getStatusCode()).as(response.getBody()).isEqualTo(401);
        assertThat(response.getBody()).contains("\"unauthorized\"");
    }
}
