package io.tally.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tally-local template}: the template's parts made from the domains, checked and written in place. */
class TemplateCommandTest {
    private static final Path TEMPLATE = Path.of("..", "infra", "template.yaml");

    @TempDir
    Path dir;

    private static CommandRun run(String... args) {
        return CommandRun.of(args);
    }

    @Test
    void check_theCommittedTemplate_isUpToDate_aStaleCopyIsNamedThenRegenerated() throws Exception {
        Path copy = dir.resolve("template.yaml");
        String committed = Files.readString(TEMPLATE);
        Files.writeString(copy, committed);
        CommandRun upToDate = run("template", "--check", "--file", copy.toString());
        assertThat(upToDate.status()).as(upToDate.err()).isZero();
        assertThat(upToDate.out()).contains("up to date for the domains users, blog, catalogue, orgs, songs, favourites");

        // A read-side route left out of the paths, and a type left out of the filter.
        String stale = committed.replaceFirst("(?m)^          /stats/global:\\n(?:            .*\\n|              .*\\n)*?"
                + "(?=          /)", "").replace("\"ShardCursor\", ", "");
        assertThat(stale).isNotEqualTo(committed);
        Files.writeString(copy, stale);
        CommandRun found = run("template", "--check", "--file", copy.toString());
        assertThat(found.status()).isEqualTo(3);
        assertThat(found.out()).contains("differs from the domains").contains("read-side routes")
                .contains("stream filters").doesNotContain("read-side route settings");
        assertThat(Files.readString(copy)).isEqualTo(stale);

        CommandRun written = run("template", "--file", copy.toString());
        assertThat(written.status()).as(written.err()).isZero();
        assertThat(written.out()).contains("regenerated read-side routes, stream filters");
        assertThat(Files.readString(copy)).isEqualTo(committed);
    }

    @Test
    void help_listsTheDomainsOnTheClassPath() {
        for (String[] help : new String[][] {{"--help"}, {"template", "--help"}, {"verify", "--help"}}) {
            CommandRun shown = run(help);
            assertThat(shown.status()).isZero();
            assertThat(shown.out()).contains("Domains on the class path: users, blog, catalogue, orgs, songs, "
                    + "favourites; add your own with --domain-jar JAR.");
        }
    }

    @Test
    void aMissingFile_orOneWithoutTheMarkers_isAUsageError() throws Exception {
        CommandRun missing = run("template", "--file", dir.resolve("none.yaml").toString());
        assertThat(missing.status()).isEqualTo(2);
        assertThat(missing.err()).contains("--file: no such file");
        Path plain = dir.resolve("plain.yaml");
        Files.writeString(plain, "Resources: {}\n");
        CommandRun unmarked = run("template", "--check", "--file", plain.toString());
        assertThat(unmarked.status()).isEqualTo(2);
        assertThat(unmarked.err()).contains("has no '# BEGIN read-side routes' ... '# END read-side routes' markers")
                .doesNotContain("\tat ");
        assertThat(Files.readString(plain)).isEqualTo("Resources: {}\n");
    }
}
