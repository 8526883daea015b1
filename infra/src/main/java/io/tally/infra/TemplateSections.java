package io.tally.infra;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tally.core.ShardSettings;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.http.Authorization;
import io.tally.core.http.Router;
import io.tally.writer.WriterApi;
import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The parts of the deployment template ({@code infra/template.yaml}) that are made from the domains, each between its
 * markers: the HTTP API's public read-side paths and their throttles (from the writer's route table,
 * {@link TemplateRoutes}), the stream mapping's filter of Tally's own records (from the registry's types,
 * {@link TemplateStreamFilter}), the table's secondary indexes (from the indexes the domains declare,
 * {@link TemplateIndexes}) and their throttle alarms ({@link TemplateIndexAlarms}), and the shard counts' parameters
 * and variables (from the shard settings the domains declare, {@link TemplateShards}). One generator for
 * {@code tally-local template}, which writes or checks them for the domains on the class path and those of
 * {@code --domain-jar}, and for {@code TemplateTest}, which checks the committed template against this build's
 * registry. Pure but for building the writer's routes (no call to any table).
 */
public final class TemplateSections {
    /** One generated part: where it lies, what it is made from, and its text. */
    public record Section(String name, String begin, String end, String text) {
    }

    private TemplateSections() {
    }

    /** Every generated part, for these domains. */
    public static List<Section> of(DomainRegistry registry) {
        List<Router.Rule> routes = writerRoutes(registry);
        return List.of(
                new Section("read-side routes", TemplateRoutes.BEGIN, TemplateRoutes.END, TemplateRoutes.paths(routes)),
                new Section("read-side route settings", TemplateRoutes.SETTINGS_BEGIN, TemplateRoutes.SETTINGS_END,
                        TemplateRoutes.routeSettings(routes)),
                new Section("stream filters", TemplateStreamFilter.BEGIN, TemplateStreamFilter.END,
                        TemplateStreamFilter.yaml(TemplateStreamFilter.ownTypes(registry))),
                new Section("table indexes", TemplateIndexes.BEGIN, TemplateIndexes.END, TemplateIndexes.yaml(registry)),
                new Section("index throttle alarms", TemplateIndexAlarms.BEGIN, TemplateIndexAlarms.END,
                        TemplateIndexAlarms.yaml(registry)),
                new Section("shard parameters", TemplateShards.PARAMETERS_BEGIN, TemplateShards.PARAMETERS_END,
                        TemplateShards.parameters(registry)),
                new Section("shard variables", TemplateShards.VARIABLES_BEGIN, TemplateShards.VARIABLES_END,
                        TemplateShards.variables(registry)));
    }

    /**
     * The text between a section's markers as the template has it: from the line after the begin marker and the
     * comment lines that follow it, to the end marker.
     *
     * @throws IllegalArgumentException when the template lacks the markers, or has them out of order
     */
    public static String current(String template, Section section) {
        int[] span = span(template, section);
        return template.substring(span[0], span[1]);
    }

    /** The template with every section's text replaced by the generated one. */
    public static String regenerate(String template, List<Section> sections) {
        String text = template;
        for (Section section : sections) {
            int[] span = span(text, section);
            text = text.substring(0, span[0]) + section.text() + text.substring(span[1]);
        }
        return text;
    }

    /** The names of the sections whose text in the template differs from the generated one. */
    public static List<String> stale(String template, List<Section> sections) {
        List<String> stale = new ArrayList<>();
        for (Section section : sections) {
            if (!current(template, section).equals(section.text())) {
                stale.add(section.name());
            }
        }
        return stale;
    }

    /**
     * The writer's route table for these domains, as deployed (access control on; the activity feed's route there):
     * what the template's read-side paths and throttles are made from.
     */
    public static List<Router.Rule> writerRoutes(DomainRegistry registry) {
        // Never called: the routes are declared without a request to the table.
        try (DynamoDbClient unused = DynamoDbClient.builder().region(Region.US_EAST_1)
                .endpointOverride(URI.create("http://127.0.0.1:9"))
                .credentialsProvider(AnonymousCredentialsProvider.create())
                .httpClient(UrlConnectionHttpClient.create()).build()) {
            return new WriterApi(registry, unused, "tally", Clock.systemUTC(), new byte[32], ShardSettings.DEFAULTS,
                    "tally-activity", Authorization.required(true),
                    new SimpleMeterRegistry()).routeRules();
        }
    }

    /**
     * Where a section's text lies: its markers are whole lines, indented as the generated text is (the YAML's nesting),
     * the begin marker followed by comment lines of its own.
     */
    private static int[] span(String template, Section section) {
        int begin = template.indexOf(section.begin());
        int end = template.indexOf(section.end());
        if (begin < 0 || end < begin || template.indexOf('\n', begin) < 0 || template.indexOf('\n', begin) > end) {
            throw new IllegalArgumentException("the template has no '" + section.begin().trim() + "' ... '"
                    + section.end().trim() + "' markers (on lines of their own, indented as Tally's template indents"
                    + " them) around its " + section.name());
        }
        int first = begin;
        while (first < end && template.substring(first, template.indexOf('\n', first)).trim().startsWith("#")) {
            first = template.indexOf('\n', first) + 1;
        }
        return new int[] {first, end};
    }
}
