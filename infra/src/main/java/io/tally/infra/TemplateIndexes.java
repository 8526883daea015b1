package io.tally.infra;

import io.tally.core.Key;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.domain.TableIndex;
import io.tally.core.domain.TableIndexes;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;

/**
 * The table's {@code AttributeDefinitions} and secondary indexes in the deployment template, generated from the
 * indexes the domains declare ({@link DomainRegistry#indexes}), each index under its declared description. The table's
 * own key and every other property of the table are the template's.
 */
final class TemplateIndexes {
    static final String BEGIN = "      # BEGIN table indexes";
    static final String END = "      # END table indexes";
    /** Where a description's comment lines wrap. */
    private static final int WIDTH = 120;

    private TemplateIndexes() {
    }

    /** The YAML between the markers (their own comment lines excluded). */
    static String yaml(DomainRegistry registry) {
        List<TableIndex> indexes = registry.indexes();
        StringBuilder yaml = new StringBuilder("      AttributeDefinitions:\n");
        for (TableIndex.Key key : TableIndexes.keyAttributes(indexes)) {
            yaml.append("        - AttributeName: ").append(key.attribute()).append('\n')
                    .append("          AttributeType: ").append(key.type()).append('\n');
        }
        appendIndexes(yaml, "GlobalSecondaryIndexes", indexes.stream().filter(index -> !index.local()).toList());
        appendIndexes(yaml, "LocalSecondaryIndexes", indexes.stream().filter(TableIndex::local).toList());
        return yaml.toString();
    }

    private static void appendIndexes(StringBuilder yaml, String property, List<TableIndex> indexes) {
        if (indexes.isEmpty()) {
            return;
        }
        yaml.append("      ").append(property).append(":\n");
        for (TableIndex index : indexes) {
            for (String line : wrap(index.description(), "        # ")) {
                yaml.append(line).append('\n');
            }
            yaml.append("        - IndexName: ").append(index.name()).append('\n')
                    .append("          KeySchema:\n")
                    .append("            - AttributeName: ").append(index.hash().attribute()).append('\n')
                    .append("              KeyType: HASH\n")
                    .append("            - AttributeName: ").append(index.range().attribute()).append('\n')
                    .append("              KeyType: RANGE\n")
                    .append("          Projection:\n")
                    .append("            ProjectionType: ").append(index.projection()).append('\n');
            if (index.projection() == ProjectionType.INCLUDE) {
                yaml.append("            NonKeyAttributes:\n");
                index.includes().forEach(attribute -> yaml.append("              - ").append(attribute).append('\n'));
            }
            if (!index.local()) {
                // Which keys of the index are read and written most, and which are throttled (a local index shares
                // the table's).
                yaml.append("          ContributorInsightsSpecification:    # ignored locally\n")
                        .append("            Enabled: !If [HasContributorInsights, true, false]\n");
            }
        }
    }

    /** The text as comment lines of at most {@value #WIDTH} characters, words kept whole. */
    static List<String> wrap(String text, String prefix) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder(prefix);
        for (String word : text.trim().split("\\s+")) {
            if (word.isEmpty()) {
                continue;
            }
            if (line.length() > prefix.length() && line.length() + 1 + word.length() > WIDTH) {
                lines.add(line.toString());
                line = new StringBuilder(prefix);
            }
            if (line.length() > prefix.length()) {
                line.append(' ');
            }
            line.append(word);
        }
        if (line.length() > prefix.length()) {
            lines.add(line.toString());
        }
        return lines;
    }
}
