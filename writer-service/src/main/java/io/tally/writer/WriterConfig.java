package io.tally.writer;

import io.tally.core.ShardSetting;
import io.tally.core.ShardSettings;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.http.Authorization;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Settings of the writer service, read from the Lambda environment.
 *
 * @param tableName    {@code TABLE_NAME} (required)
 * @param region       {@code AWS_REGION}, set by Lambda (defaults to us-east-1 for local use)
 * @param endpoint     {@code DYNAMODB_ENDPOINT}, optional, e.g. {@code http://127.0.0.1:8000} for DynamoDB Local
 * @param cursorSecret signs pagination cursors; all functions of a deployment must share it: the value of the Secrets
 *                     Manager secret {@code CURSOR_SECRET_ARN} names, or {@code CURSOR_SECRET} (local use)
 *                     ({@link CursorSecrets})
 * @param shards       {@code SELECTOR_SHARDS}, {@code STATUS_SHARDS}, {@code GLOBAL_SHARDS} (each 1..100, default 4):
 *                     how the stream processor spreads the derived data that the read side reads. The stream
 *                     processor reads the same variables, and both must see the same values: give every function
 *                     of a deployment the same settings.
 * @param activityTable {@code ACTIVITY_TABLE_NAME}, optional: the subscriber example's feed table, which
 *                     {@code GET /activity} reads; without it that route does not exist
 * @param authorization {@code AUTH_ENABLED} ({@code true}, the default, or {@code false}) and
 *                     {@code PUBLIC_READ_SIDE} ({@code true}, the default, or {@code false}): whether each route's
 *                     access rule is checked against the caller of the verified token claims, and whether the
 *                     aggregate read side and the dashboard need a token. A function deployed without
 *                     {@code AUTH_ENABLED} checks: only {@code false}, said on purpose, opens every route (as the
 *                     local runner without {@code --auth} is, which builds its settings in code)
 * @param domains       the domains whose routes the writer serves: those on the function's class path (the default);
 *                      the local runner adds those of {@code --domain-jar}
 * @param writeQuota    {@code WRITE_QUOTA_TABLE} with {@code WRITE_QUOTA} and {@code ADMIN_WRITE_QUOTA}
 *                      ({@code RATE/BURST}, default {@code 20/100} and {@code 200/1000}): the table that counts each
 *                      signed-in caller's writes across every container, and the rates; null (no table) for none. Only
 *                      with access checks on.
 */
public record WriterConfig(String tableName, String region, URI endpoint, byte[] cursorSecret, ShardSettings shards,
        String activityTable, Authorization authorization, DomainRegistry domains, WriteQuotaTable writeQuota) {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(WriterConfig.class);
    /**
     * Signs cursors when no secret is configured, outside Lambda only (the local runner, a writer run by hand); a
     * function without a secret refuses to start ({@link CursorSecrets#required}).
     */
    static final byte[] DEVELOPMENT_SECRET = "tally-development-cursor-secret".getBytes(StandardCharsets.UTF_8);

    /** The table that counts the callers' writes, and the rates it holds them to. */
    public record WriteQuotaTable(String table, io.tally.core.http.WriteQuota.Rates rates) {
        public WriteQuotaTable {
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(rates, "rates");
        }
    }

    public WriterConfig {
        Objects.requireNonNull(tableName, "tableName");
        Objects.requireNonNull(region, "region");
        cursorSecret = cursorSecret == null ? DEVELOPMENT_SECRET : cursorSecret.clone();
        shards = shards == null ? ShardSettings.DEFAULTS : shards;
        authorization = authorization == null ? Authorization.OPEN : authorization;
        domains = domains == null ? DomainRegistry.load() : domains;
    }

    /** The domains on the class path. */
    public WriterConfig(String tableName, String region, URI endpoint, byte[] cursorSecret, ShardSettings shards,
            String activityTable, Authorization authorization) {
        this(tableName, region, endpoint, cursorSecret, shards, activityTable, authorization, null, null);
    }

    /** Open (no access checks). */
    public WriterConfig(String tableName, String region, URI endpoint, byte[] cursorSecret, ShardSettings shards,
            String activityTable) {
        this(tableName, region, endpoint, cursorSecret, shards, activityTable, Authorization.OPEN);
    }

    /** Without an activity feed. */
    public WriterConfig(String tableName, String region, URI endpoint, byte[] cursorSecret, ShardSettings shards) {
        this(tableName, region, endpoint, cursorSecret, shards, null);
    }

    /** With the default shard counts. */
    public WriterConfig(String tableName, String region, URI endpoint, byte[] cursorSecret) {
        this(tableName, region, endpoint, cursorSecret, ShardSettings.DEFAULTS);
    }

    /** Reads a cursor secret named by {@code CURSOR_SECRET_ARN} from Secrets Manager. */
    public static WriterConfig fromEnvironment(Map<String, String> env) {
        return fromEnvironment(env, CursorSecrets.secretsManager(region(env)));
    }

    /** @param secrets reads a Secrets Manager secret's string by ARN */
    static WriterConfig fromEnvironment(Map<String, String> env, Function<String, String> secrets) {
        String table = env.get("TABLE_NAME");
        if (table == null || table.isBlank()) {
            throw new IllegalStateException("environment variable TABLE_NAME is not set");
        }
        String endpoint = env.get("DYNAMODB_ENDPOINT");
        DomainRegistry domains = DomainRegistry.load();
        List<String> undeclared = ShardSettings.undeclared(env, domains.shardSettings());
        if (!undeclared.isEmpty()) {
            LOG.warn("{} set, but no loaded domain declares {}: the shard settings are {}", undeclared,
                    undeclared.size() == 1 ? "it" : "them", domains.shardSettings().stream()
                            .map(ShardSetting::variable).toList());
        }
        return new WriterConfig(table, region(env),
                endpoint == null || endpoint.isBlank() ? null : URI.create(endpoint),
                CursorSecrets.required(env, secrets),
                ShardSettings.fromEnvironment(env, domains.shardSettings()),
                env.get("ACTIVITY_TABLE_NAME") == null || env.get("ACTIVITY_TABLE_NAME").isBlank() ? null
                        : env.get("ACTIVITY_TABLE_NAME"),
                authorization(env), domains, writeQuota(env));
    }

    /** {@code WRITE_QUOTA_TABLE}, {@code WRITE_QUOTA}, {@code ADMIN_WRITE_QUOTA}; no table, no quota. */
    static WriteQuotaTable writeQuota(Map<String, String> env) {
        String table = env.get("WRITE_QUOTA_TABLE");
        if (table == null || table.isBlank()) {
            return null;
        }
        io.tally.core.http.WriteQuota.Rates defaults = io.tally.core.http.WriteQuota.Rates.DEFAULTS;
        String caller = orDefault(env, "WRITE_QUOTA", defaults.perSecond() + "/" + defaults.burst());
        String admin = orDefault(env, "ADMIN_WRITE_QUOTA", defaults.adminPerSecond() + "/" + defaults.adminBurst());
        try {
            return new WriteQuotaTable(table.trim(), io.tally.core.http.WriteQuota.Rates.of(caller, admin));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("environment variables WRITE_QUOTA and ADMIN_WRITE_QUOTA: "
                    + e.getMessage(), e);
        }
    }

    private static String orDefault(Map<String, String> env, String name, String otherwise) {
        String value = env.get(name);
        return value == null || value.isBlank() ? otherwise : value.trim();
    }

    /**
     * {@code AUTH_ENABLED} (unset or blank: on, so that a function deployed by other means than the template is not
     * open by omission) and {@code PUBLIC_READ_SIDE}; anything but {@code true}, {@code false} or unset fails.
     */
    static Authorization authorization(Map<String, String> env) {
        boolean enabled = flag(env, "AUTH_ENABLED", true);
        boolean publicReadSide = flag(env, "PUBLIC_READ_SIDE", true);
        if (!enabled) {
            LOG.warn("AUTH_ENABLED=false: no route checks its access rule; anyone who reaches the function may write"
                    + " and read everything");
            return Authorization.OPEN;
        }
        return Authorization.required(publicReadSide);
    }

    private static boolean flag(Map<String, String> env, String name, boolean otherwise) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return otherwise;
        }
        return switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalStateException("environment variable " + name + " must be true or false, not '"
                    + value + "'");
        };
    }

    /** The same settings, reading the activity feed from {@code table}. */
    public WriterConfig withActivityTable(String table) {
        return new WriterConfig(tableName, region, endpoint, cursorSecret, shards, table, authorization, domains,
                writeQuota);
    }

    /** The same settings with access control as given. */
    public WriterConfig withAuthorization(Authorization checks) {
        return new WriterConfig(tableName, region, endpoint, cursorSecret, shards, activityTable, checks, domains,
                writeQuota);
    }

    /** The same settings serving these domains. */
    public WriterConfig withDomains(DomainRegistry registry) {
        return new WriterConfig(tableName, region, endpoint, cursorSecret, shards, activityTable, authorization, registry,
                writeQuota);
    }

    /** The same settings, counting the callers' writes in {@code quota}'s table (with access checks on). */
    public WriterConfig withWriteQuota(WriteQuotaTable quota) {
        return new WriterConfig(tableName, region, endpoint, cursorSecret, shards, activityTable, authorization, domains,
                quota);
    }

    static String region(Map<String, String> env) {
        return env.getOrDefault("AWS_REGION", env.getOrDefault("AWS_DEFAULT_REGION", "us-east-1"));
    }

    public static WriterConfig local(String tableName, URI endpoint) {
        return new WriterConfig(tableName, "us-east-1", endpoint, null);
    }
}
