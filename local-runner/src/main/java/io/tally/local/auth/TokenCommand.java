package io.tally.local.auth;

import io.tally.core.Ids;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code tally-local token}: prints a bearer token for a runner started with {@code --auth --data-dir DIR}, signed with
 * the key that runner keeps in {@code DIR} (so the token works across the runner's restarts, and needs no running
 * runner to be minted).
 */
@Command(name = "token", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Prints a bearer token for a runner started with --auth and the same --data-dir, for example:",
            "  curl -H \"Authorization: Bearer $(tally-local token --data-dir DIR --user u1)\" ...",
            "The token's subject is --user (the {userId} of that user's routes); --admin puts it in the admin group "
                    + "(the catalogue, songs and organisations). It is signed with the key the runner keeps in "
                    + "DIR/" + LocalAuth.KEY_FILE + ", issuer " + LocalAuth.ISSUER + ", audience " + LocalAuth.AUDIENCE
                    + ".",
            ""},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "  0:the token was printed",
            "  2:a usage error, or no key in the data directory (start tally-local --auth --data-dir DIR once)"})
public final class TokenCommand implements Callable<Integer> {
    @Option(names = "--data-dir", paramLabel = "DIR", required = true,
            description = "the runner's --data-dir, which holds its signing key")
    Path dataDir;

    @Option(names = "--user", paramLabel = "ID", required = true,
            description = "the token's subject: the user id of the routes it may change")
    String user;

    @Option(names = "--admin", description = "in the admin group: the catalogue, songs and organisations")
    boolean admin;

    @Option(names = "--ttl", paramLabel = "DURATION", defaultValue = "1h",
            description = "how long the token is valid: e.g. 90s, 30m, 12h, 7d or PT1H (default: ${DEFAULT-VALUE}; "
                    + "at most 30d)")
    String ttl;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (!Ids.isValid(user)) {
            throw new ParameterException(spec.commandLine(), "--user must be a user id (" + Ids.PATTERN.pattern()
                    + "), not '" + user + "'");
        }
        Duration lifetime = duration(ttl);
        if (lifetime == null || lifetime.isNegative() || lifetime.isZero()
                || lifetime.compareTo(LocalAuth.MAX_TTL) > 0) {
            throw new ParameterException(spec.commandLine(), "--ttl must be a duration above 0 and at most 30d, "
                    + "such as 30m, 12h or PT1H, not '" + ttl + "'");
        }
        Path dir = dataDir.toAbsolutePath().normalize();
        LocalAuth auth = LocalAuth.existing(dir).orElseThrow(() -> new ParameterException(spec.commandLine(),
                "no signing key in " + LocalAuth.keyFile(dir) + ": start tally-local --auth --data-dir " + dir
                        + " once, then mint tokens for it"));
        PrintWriter out = spec.commandLine().getOut();
        out.println(auth.mint(user, admin, lifetime, Instant.now()));
        out.flush();
        return 0;
    }

    /** {@code 90s}, {@code 30m}, {@code 12h}, {@code 7d} or an ISO-8601 duration; null when unreadable. */
    static Duration duration(String text) {
        String value = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (value.startsWith("p")) {
                return Duration.parse(value.toUpperCase(Locale.ROOT));
            }
            if (value.length() < 2) {
                return null;
            }
            long amount = Long.parseLong(value.substring(0, value.length() - 1));
            return switch (value.charAt(value.length() - 1)) {
                case 's' -> Duration.ofSeconds(amount);
                case 'm' -> Duration.ofMinutes(amount);
                case 'h' -> Duration.ofHours(amount);
                case 'd' -> Duration.ofDays(amount);
                default -> null;
            };
        } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
            return null;
        }
    }
}
