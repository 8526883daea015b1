package io.tally.local.domains;

import io.tally.core.domain.Domain;
import io.tally.core.domain.DomainRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import picocli.CommandLine.Option;

/**
 * {@code --domain-jar JAR} (repeatable), for the runner and {@code verify}: domains of the user's own, in jars beside
 * Tally's, each listing its domains in {@code META-INF/services/io.tally.core.domain.Domain} as a Lambda function's jar
 * would. They join the domains on the runner's class path; a jar that is missing, not a jar, lists no domain or whose
 * domain cannot be loaded is refused with a message that says so.
 */
public final class DomainJars {
    static final String SERVICE = "META-INF/services/" + Domain.class.getName();

    @Option(names = "--domain-jar", paramLabel = "JAR",
            description = "a jar of your own domain(s) to serve and derive besides Tally's (repeatable), e.g. "
                    + "examples/reviews/target/tally-example-reviews.jar")
    List<Path> jars = new ArrayList<>();

    /** The domains on the class path and in the jars. */
    public DomainRegistry registry() {
        return registry(jars);
    }

    /**
     * The domains on the class path and in {@code jars}.
     *
     * @throws IllegalArgumentException when a jar cannot be used, saying which and why
     */
    public static DomainRegistry registry(List<Path> jars) {
        if (jars.isEmpty()) {
            return DomainRegistry.load(DomainJars.class.getClassLoader());
        }
        List<URL> urls = new ArrayList<>();
        for (Path jar : jars) {
            urls.add(check(jar));
        }
        // Never closed: the domains' classes are used for as long as the runner runs.
        URLClassLoader loader = new URLClassLoader("domain-jars", urls.toArray(URL[]::new),
                DomainJars.class.getClassLoader());
        try {
            return DomainRegistry.load(loader);
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException("--domain-jar: " + e.getMessage(), e);
        }
    }

    private static URL check(Path jar) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("--domain-jar " + jar + ": no such file (build it first, e.g. with "
                    + "mvn -q -DskipTests package)");
        }
        try (JarFile file = new JarFile(jar.toFile())) {
            if (file.getEntry(SERVICE) == null) {
                throw new IllegalArgumentException("--domain-jar " + jar + " lists no domain: it has no " + SERVICE);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("--domain-jar " + jar + " is not a jar: " + e.getMessage(), e);
        }
        try {
            return jar.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new UncheckedIOException(e);
        }
    }
}
