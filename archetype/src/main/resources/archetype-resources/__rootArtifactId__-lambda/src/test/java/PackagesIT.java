package ${package};

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * The deployment packages list every domain in their merged service file (Tally's and this one), so that the functions'
 * {@code DomainRegistry.load()} finds them all, and hold their handler.
 */
class PackagesIT {
    private static final String SERVICES = "META-INF/services/io.tally.core.domain.Domain";
    private static final Path DIR = Path.of(System.getProperty("packages.dir", "target"));

    @Test
    void writer_listsTallysDomainsAndThisOne_andHoldsItsHandler() throws IOException {
        check("writer.jar", "io/tally/writer/WriterHandler.class");
    }

    @Test
    void stream_listsTallysDomainsAndThisOne_andHoldsItsHandler() throws IOException {
        check("stream.jar", "io/tally/stream/WindowedStreamHandler.class");
    }

    private static void check(String name, String handler) throws IOException {
        try (JarFile jar = new JarFile(DIR.resolve(name).toFile())) {
            assertThat(jar.getEntry(handler)).as(name + " holds " + handler).isNotNull();
            ZipEntry services = jar.getEntry(SERVICES);
            assertThat(services).as(name + " has " + SERVICES).isNotNull();
            List<String> listed;
            try (InputStream in = jar.getInputStream(services)) {
                listed = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::trim)
                        .filter(line -> !line.isEmpty() && !line.startsWith("#")).toList();
            }
            assertThat(listed).as(name).contains("io.tally.core.users.UsersDomain", "io.tally.domains.blog.Blog",
                    "${package}.Likes");
        }
    }
}
