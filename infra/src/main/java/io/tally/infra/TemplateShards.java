package io.tally.infra;

import io.tally.core.ShardSetting;
import io.tally.core.ShardSettings;
import io.tally.core.domain.DomainRegistry;

/**
 * The deployment template's shard counts, generated from the settings the domains declare
 * ({@link DomainRegistry#shardSettings}): one parameter each (1 to {@value ShardSettings#MAX}, its default), and the
 * environment variable both functions read it from.
 */
final class TemplateShards {
    static final String PARAMETERS_BEGIN = "  # BEGIN shard parameters";
    static final String PARAMETERS_END = "  # END shard parameters";
    static final String VARIABLES_BEGIN = "        # BEGIN shard variables";
    static final String VARIABLES_END = "        # END shard variables";

    private TemplateShards() {
    }

    /** The parameters, between their markers. */
    static String parameters(DomainRegistry registry) {
        StringBuilder yaml = new StringBuilder();
        for (ShardSetting setting : registry.shardSettings()) {
            yaml.append("  ").append(setting.parameter()).append(":\n")
                    .append("    Type: Number\n")
                    .append("    Default: ").append(setting.defaultCount()).append('\n')
                    .append("    MinValue: 1\n")
                    .append("    MaxValue: ").append(ShardSettings.MAX).append('\n')
                    .append("    Description: ").append(setting.description()).append(" (").append(setting.variable())
                    .append("). Changing it needs a rebuild of the derived data (verify --repair).\n");
        }
        return yaml.toString();
    }

    /** The functions' environment variables, between their markers. */
    static String variables(DomainRegistry registry) {
        StringBuilder yaml = new StringBuilder();
        for (ShardSetting setting : registry.shardSettings()) {
            yaml.append("        ").append(setting.variable()).append(": !Ref ").append(setting.parameter())
                    .append('\n');
        }
        return yaml.toString();
    }
}
