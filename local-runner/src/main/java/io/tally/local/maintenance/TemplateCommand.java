package io.tally.local.maintenance;

import io.tally.core.domain.DomainRegistry;
import io.tally.infra.TemplateSections;
import io.tally.local.domains.DomainJars;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tally-local template}: writes (or checks) the parts of the deployment template that are made from the
 * domains, for Tally's and those of {@code --domain-jar}: the HTTP API's public read-side paths and their throttles, and
 * the stream mapping's filter of Tally's own records ({@link TemplateSections}). The one command for it: an outside
 * domain's public routes get their paths (without it they fall to the {@code $default} route, which needs a token), and
 * its derived types join the filter.
 */
@Command(name = "template", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Regenerates the parts of the AWS SAM template that are made from the domains (each between its BEGIN and "
                    + "END markers): the public read-side paths of the HTTP API and their throttles, from the writer's "
                    + "route table, and the stream event source mapping's filter of Tally's own records, from the "
                    + "registry's types. Pass your domains' jars with --domain-jar, as to the functions' packages.",
            ""},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "  0:written (or, with --check, up to date)",
            "  1:an unexpected failure",
            "  2:a usage error: no such file, a file without the markers, a jar that is no domain jar",
            "  3:with --check, parts that differ (each named); nothing written"})
public final class TemplateCommand implements Callable<Integer> {
    static final int STALE = 3;

    @Mixin
    DomainJars domainJars = new DomainJars();

    @Option(names = "--file", paramLabel = "FILE", defaultValue = "infra/template.yaml",
            description = "the template to regenerate in place (default: ${DEFAULT-VALUE})")
    Path file;

    @Option(names = "--check", description = "write nothing: exit 3, naming them, when parts differ")
    boolean check;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        if (!Files.isRegularFile(file)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--file: no such file: " + file);
        }
        DomainRegistry registry;
        List<TemplateSections.Section> sections;
        String text = Files.readString(file);
        List<String> stale;
        try {
            registry = domainJars.registry();
            sections = TemplateSections.of(registry);
            stale = TemplateSections.stale(text, sections);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), file + ": " + e.getMessage(), e);
        }
        String domains = DomainJars.describe(registry);
        if (stale.isEmpty()) {
            out.println(file + ": up to date for the domains " + domains);
            return 0;
        }
        if (check) {
            out.println(file + ": differs from the domains " + domains + " in: " + String.join(", ", stale));
            out.println("regenerate it with: tally-local template --file " + file
                    + (domainJars.isEmpty() ? "" : " --domain-jar ..."));
            return STALE;
        }
        Files.writeString(file, TemplateSections.regenerate(text, sections));
        out.println(file + ": regenerated " + String.join(", ", stale) + " for the domains " + domains);
        return 0;
    }
}
