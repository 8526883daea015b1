package io.tally.infra;

import io.tally.core.domain.DomainRegistry;
import io.tally.core.domain.TableIndex;

/**
 * The throttle alarms of the table's global secondary indexes in the deployment template, generated from the indexes
 * the domains declare ({@link DomainRegistry#indexes}): for each, one on its throttled reads and one on its throttled
 * writes. An index's partitions have limits of their own: a hot one (a selector everyone reads, a status every post
 * moves through) throttles while the table's do not, and a throttled index write holds up the table's write that
 * feeds it, so the stream processor's lag grows. A local index shares the table's partitions and its alarms.
 */
final class TemplateIndexAlarms {
    static final String BEGIN = "  # BEGIN index throttle alarms";
    static final String END = "  # END index throttle alarms";

    private TemplateIndexAlarms() {
    }

    /** The YAML between the markers (their own comment lines excluded). */
    static String yaml(DomainRegistry registry) {
        StringBuilder yaml = new StringBuilder();
        for (TableIndex index : registry.indexes().stream().filter(index -> !index.local()).toList()) {
            alarm(yaml, index, "Read", "Reads of the table's index " + index.name() + " were throttled (a hot index"
                    + " partition, or the account's on-demand limits): its read route answers 503s.");
            alarm(yaml, index, "Write", "Writes to the table's index " + index.name() + " were throttled (a hot index"
                    + " partition): the table writes that feed it are held up, and the stream processor's lag grows.");
        }
        return yaml.toString();
    }

    /** The logical id of an index's alarm: its name's letters and digits. */
    static String id(TableIndex index, String kind) {
        return "Index" + index.name().replaceAll("[^A-Za-z0-9]", "") + kind + "ThrottleAlarm";
    }

    private static void alarm(StringBuilder yaml, TableIndex index, String kind, String description) {
        yaml.append("  ").append(id(index, kind)).append(":\n")
                .append("    Type: AWS::CloudWatch::Alarm\n")
                .append("    Properties:\n")
                .append("      AlarmDescription: \"").append(description).append("\"\n")
                .append("      Namespace: AWS/DynamoDB\n")
                .append("      MetricName: ").append(kind).append("ThrottleEvents\n")
                .append("      Dimensions:\n")
                .append("        - Name: TableName\n")
                .append("          Value: !Ref Table\n")
                .append("        - Name: GlobalSecondaryIndexName\n")
                .append("          Value: ").append(index.name()).append('\n')
                .append("      Statistic: Sum\n")
                .append("      Period: 300\n")
                .append("      EvaluationPeriods: 1\n")
                .append("      Threshold: 0\n")
                .append("      ComparisonOperator: GreaterThanThreshold\n")
                .append("      TreatMissingData: notBreaching\n")
                .append("      AlarmActions: [!Ref AlarmTopic]\n")
                .append("      OKActions: [!Ref AlarmTopic]\n")
                .append("      Tags:\n")
                .append("        - Key: tally:stage\n")
                .append("          Value: !Ref Stage\n\n");
    }
}
