package io.tally.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The data directory holds the table, the events and the signing key: its owner's alone, whatever was there before. */
class DataDirPermissionsTest {
    @TempDir
    Path temporary;

    @Test
    void theDataDirectoryAndWhatItHolds_areMadeReadableByTheirOwnerOnly() throws Exception {
        Path dir = temporary.resolve("data");
        Path events = Files.createDirectories(dir.resolve("events"));
        Path file = Files.writeString(events.resolve("2026-11-30.jsonl"), "{}\n");
        Path database = Files.writeString(dir.resolve("shared-local-instance.db"), "x");
        for (Path path : new Path[] {dir, events}) {
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        for (Path path : new Path[] {file, database}) {
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-r--r--"));
        }

        Preflight.prepareDir(dir, "--data-dir");

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(events))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(database))).isEqualTo("rw-------");
    }

    @Test
    void aNewDataDirectory_isCreatedPrivate() throws Exception {
        Path dir = temporary.resolve("new/data");
        Preflight.prepareDir(dir, "--data-dir");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
    }
}
