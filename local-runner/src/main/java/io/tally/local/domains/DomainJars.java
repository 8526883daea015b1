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
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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

    /** Whether no jar was given. */
    public boolean isEmpty() {
        return jars.isEmpty();
    }

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

    /**
     * The domains of a registry by name, in load order, each from a jar named after it: {@code users, blog, ...,
     * reviews (tally-example-reviews.jar)}; those on the class path name none.
     */
    public static String describe(DomainRegistry registry) {
        List<String> names = new ArrayList<>();
        for (Domain domain : registry.domains()) {
            names.add(domain.name() + jarOf(domain).map(jar -> " (" + jar + ")").orElse(""));
        }
        return String.join(", ", names);
    }

    /** The footer of a command's {@code --help}: the domains it would load without {@code --domain-jar}. */
    public static String helpFooter() {
        String loaded;
        try {
            loaded = describe(registry(List.of()));
        } catch (RuntimeException e) {
            loaded = "none could be loaded (" + e.getMessage() + ")";
        }
        return System.lineSeparator() + "Domains on the class path: " + loaded + "; add your own with --domain-jar JAR."
                + System.lineSeparator();
    }

    /** The file name of the jar a domain was loaded from by {@link #registry(List)}, if any. */
    private static Optional<String> jarOf(Domain domain) {
        ClassLoader loader = domain.getClass().getClassLoader();
        if (!(loader instanceof URLClassLoader) || !"domain-jars".equals(loader.getName())) {
            return Optional.empty();
        }
        CodeSource source = domain.getClass().getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return Optional.empty();
        }
        String path = source.getLocation().getPath();
        return Optional.of(path.substring(path.lastIndexOf('/') + 1));
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
