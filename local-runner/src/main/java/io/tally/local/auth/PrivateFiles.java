package io.tally.local.auth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/** The runner's secrets on disk: each written whole or not at all, readable by its owner only. */
final class PrivateFiles {
    private PrivateFiles() {
    }

    /**
     * Writes {@code text} to a temporary file made {@code rw-------} (where the file system says so) before anything is
     * in it, then moves it in place.
     *
     * @param what what the file holds, for the error
     */
    static void write(Path file, String text, String what) {
        try {
            Files.createDirectories(file.getParent());
            Path temporary = Files.createTempFile(file.getParent(), ".secret", ".tmp");
            try {
                Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException e) {
                // Not a POSIX file system: the data directory's own permissions protect it.
            }
            Files.writeString(temporary, text, StandardCharsets.UTF_8);
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not write " + what + " " + file, e);
        }
    }
}
