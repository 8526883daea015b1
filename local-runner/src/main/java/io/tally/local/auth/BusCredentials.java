package io.tally.local.auth;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import java.util.Properties;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;

/**
 * The credentials that callers of the local event bus sign with under {@code --auth}, as EventBridge takes only signed
 * calls: new at every start of the runner, kept in its data directory ({@link #FILE}, readable by its owner only) so
 * that the maintenance commands of the same user (a dead-letter replay) can sign with them, and in memory only without
 * a data directory.
 */
public final class BusCredentials {
    /** Where they are kept, under the data directory: an AWS credentials file's two keys. */
    public static final String FILE = "auth/bus-credentials";
    private static final String KEY_ID = "aws_access_key_id";
    private static final String SECRET = "aws_secret_access_key";
    private static final String KEY_ID_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    private static final SecureRandom RANDOM = new SecureRandom();

    private BusCredentials() {
    }

    /** New credentials: an access key id of letters and digits, as AWS's look, and a 256-bit secret. */
    public static AwsBasicCredentials generate() {
        StringBuilder keyId = new StringBuilder("TALLY");
        for (int i = 0; i < 15; i++) {
            keyId.append(KEY_ID_LETTERS.charAt(RANDOM.nextInt(KEY_ID_LETTERS.length())));
        }
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        return AwsBasicCredentials.create(keyId.toString(), Base64.getUrlEncoder().withoutPadding()
                .encodeToString(secret));
    }

    /** New credentials for this run, kept in {@code dataDir} in place of the last run's. */
    public static AwsBasicCredentials renewIn(Path dataDir) {
        AwsBasicCredentials credentials = generate();
        Properties file = new Properties();
        file.setProperty(KEY_ID, credentials.accessKeyId());
        file.setProperty(SECRET, credentials.secretAccessKey());
        StringWriter text = new StringWriter();
        try {
            file.store(text, "The local event bus's callers sign with these (tally-local --auth); new at every start");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        PrivateFiles.write(file(dataDir), text.toString(), "the event bus's credentials");
        return credentials;
    }

    /** The credentials of the runner whose data directory this is, if it runs (or ran) with {@code --auth}. */
    public static Optional<AwsBasicCredentials> readFrom(Path dataDir) {
        Properties file = new Properties();
        try (Reader in = Files.newBufferedReader(file(dataDir), StandardCharsets.UTF_8)) {
            file.load(in);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the event bus's credentials " + file(dataDir), e);
        }
        String keyId = file.getProperty(KEY_ID);
        String secret = file.getProperty(SECRET);
        if (keyId == null || secret == null || keyId.isBlank() || secret.isBlank()) {
            throw new IllegalStateException(file(dataDir) + " holds no " + KEY_ID + " and " + SECRET
                    + ": start tally-local --auth again to write new ones");
        }
        return Optional.of(AwsBasicCredentials.create(keyId.trim(), secret.trim()));
    }

    public static Path file(Path dataDir) {
        return dataDir.resolve(FILE);
    }
}
