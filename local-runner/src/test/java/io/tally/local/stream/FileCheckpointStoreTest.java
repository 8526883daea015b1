package io.tally.local.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileCheckpointStoreTest {
    private static final String STREAM = "arn:aws:dynamodb:ddblocal:000000000000:table/t/stream/2024-01-01T00:00:00.000";
    private static final String OTHER_STREAM = "arn:aws:dynamodb:ddblocal:000000000000:table/u/stream/2024-01-01T00:00:00.000";

    @TempDir
    Path dataDir;

    @Test
    void savedCheckpoints_readByANewStore_areTheSame() {
        FileCheckpointStore store = FileCheckpointStore.inDirectory(dataDir);
        store.save(STREAM, "shard-1", ShardCheckpoint.at("0001"));
        store.save(STREAM, "shard-1", ShardCheckpoint.at("0002").markDone());
        store.save(STREAM, "shard-2", ShardCheckpoint.at("0005"));
        store.save(OTHER_STREAM, "shard-9", new ShardCheckpoint(null, true));

        FileCheckpointStore reopened = FileCheckpointStore.inDirectory(dataDir);

        assertThat(reopened.load(STREAM)).isEqualTo(Map.of(
                "shard-1", new ShardCheckpoint("0002", true),
                "shard-2", new ShardCheckpoint("0005", false)));
        assertThat(reopened.load(OTHER_STREAM)).isEqualTo(Map.of("shard-9", new ShardCheckpoint(null, true)));
        assertThat(reopened.file()).isEqualTo(dataDir.resolve(FileCheckpointStore.FILE_NAME).toAbsolutePath());
    }

    @Test
    void noFileYet_loadsNothing() {
        assertThat(FileCheckpointStore.inDirectory(dataDir.resolve("not-yet")).load(STREAM)).isEmpty();
    }

    @Test
    void manySaves_leaveOnlyTheCheckpointFileBehind() throws IOException {
        FileCheckpointStore store = FileCheckpointStore.inDirectory(dataDir);
        for (int i = 0; i < 20; i++) {
            store.save(STREAM, "shard-1", ShardCheckpoint.at(Integer.toString(i)));
        }

        try (Stream<Path> files = Files.list(dataDir)) {
            assertThat(files).containsExactly(dataDir.resolve(FileCheckpointStore.FILE_NAME));
        }
    }

    @Test
    void fileThatIsNotJson_rejectedWithWhatToDo() throws IOException {
        Files.writeString(dataDir.resolve(FileCheckpointStore.FILE_NAME), "{\"version\":1,\"streams\":");

        assertThatThrownBy(() -> FileCheckpointStore.inDirectory(dataDir))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is not readable")
                .hasMessageContaining("delete it");
    }

    @Test
    void fileOfAnotherShape_rejected() throws IOException {
        Files.writeString(dataDir.resolve(FileCheckpointStore.FILE_NAME),
                "{\"version\":1,\"streams\":{\"" + STREAM + "\":{\"shard-1\":{\"sequenceNumber\":5}}}}");

        assertThatThrownBy(() -> FileCheckpointStore.inDirectory(dataDir))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("shard-1");
    }

    @Test
    void inMemoryStore_keepsCheckpointsPerStream() {
        InMemoryCheckpointStore store = new InMemoryCheckpointStore();
        store.save(STREAM, "shard-1", ShardCheckpoint.at("7"));

        assertThat(store.load(STREAM)).containsEntry("shard-1", ShardCheckpoint.at("7"));
        assertThat(store.load(OTHER_STREAM)).isEmpty();
    }
}
