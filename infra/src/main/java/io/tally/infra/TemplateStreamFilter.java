package io.tally.infra;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.TableSchema;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.template.DeploymentTemplate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The stream event source mapping's {@code FilterCriteria}, generated from the domain registry: Tally's own entity
 * types (every derived type, and the stream processor's bookkeeping) are dropped, every other record is kept. Lambda
 * keeps a record when any filter matches it, so the filters are the four ways a record can still matter to the engine:
 *
 * <ol>
 *   <li>its new image has a string entity type that is not one of ours (a base item; an unknown type, poison);
 *   <li>the same of its old image (a base item's REMOVE, or a MODIFY that changes the type);
 *   <li>it has a new image whose entity type is not a string, or that has none (poison);
 *   <li>the same of its old image.
 * </ol>
 *
 * A pattern field that is absent never matches {@code anything-but}, hence the last two. "Has a new image" is the key
 * attribute {@code pk} in it: an image always holds the item's key, and a pattern's {@code exists} only tests leaves.
 * Only the {@code dynamodb} key is matched: the only one DynamoDB event source mappings filter on.
 */
final class TemplateStreamFilter {
    static final String BEGIN = "            # BEGIN stream filter";
    static final String END = "            # END stream filter";
    /** Lambda's default quota of filters per event source mapping (10 with an increase). */
    static final int MAX_FILTERS = 5;
    /** Lambda's limit on the length of one filter's {@code Pattern}. */
    static final int MAX_PATTERN_LENGTH = 4096;
    static final List<String> IMAGES = List.of("NewImage", "OldImage");

    private static final ObjectMapper JSON = new ObjectMapper();
    /** How many type names a line of the generated YAML holds. */
    private static final int NAMES_PER_LINE = 6;

    private TemplateStreamFilter() {
    }

    /**
     * Tally's own entity types, sorted: every derived type the registry declares and the stream processor's bookkeeping
     * ({@link DomainRegistry#BOOKKEEPING}: shard cursors, dead letters, the pruner's position). The engine skips their
     * records as derived ({@code Derivations.route}).
     */
    static List<String> ownTypes(DomainRegistry registry) {
        Set<String> names = new TreeSet<>();
        registry.derivedTypes().stream().map(DerivedType::name).forEach(names::add);
        DomainRegistry.BOOKKEEPING.stream().map(EntityType::attributeValue).forEach(names::add);
        return List.copyOf(names);
    }

    /** The filters' patterns, as Lambda takes them (JSON), in the order of the class comment. */
    static List<String> patterns(List<String> ownTypes) {
        List<String> patterns = new ArrayList<>();
        for (String image : IMAGES) {
            patterns.add("{\"dynamodb\": {\"" + image + "\": {\"" + TableSchema.ENTITY_TYPE + "\": {\"S\": [{\"anything-but\": ["
                    + quoted(ownTypes) + "]}]}}}}");
        }
        for (String image : IMAGES) {
            patterns.add("{\"dynamodb\": {\"" + image + "\": {\"" + TableSchema.PK + "\": {\"S\": [{\"exists\": true}]}, \""
                    + TableSchema.ENTITY_TYPE + "\": {\"S\": [{\"exists\": false}]}}}}");
        }
        return patterns;
    }

    /** The YAML between the markers (their own comment lines excluded). */
    static String yaml(List<String> ownTypes) {
        List<String> patterns = patterns(ownTypes);
        List<String> why = List.of(
                "a new image whose type is not one of ours: a base item, or an unknown type (poison)",
                "the same of the old image: a base item's REMOVE, a MODIFY that changes the type",
                "a new image whose entityType is not a string, or that has none: poison",
                "the same of the old image");
        StringBuilder yaml = new StringBuilder("            FilterCriteria:\n              Filters:\n");
        for (int i = 0; i < patterns.size(); i++) {
            yaml.append("                # ").append(why.get(i)).append('\n');
            if (i < IMAGES.size()) {
                // The long type list on lines of its own; a folded scalar joins them with spaces.
                String image = IMAGES.get(i);
                yaml.append("                - Pattern: >-\n")
                        .append("                    {\"dynamodb\": {\"").append(image).append("\": {\"")
                        .append(TableSchema.ENTITY_TYPE).append("\": {\"S\": [{\"anything-but\": [\n");
                for (int from = 0; from < ownTypes.size(); from += NAMES_PER_LINE) {
                    List<String> line = ownTypes.subList(from, Math.min(ownTypes.size(), from + NAMES_PER_LINE));
                    yaml.append("                    ").append(quoted(line))
                            .append(from + NAMES_PER_LINE < ownTypes.size() ? "," : "").append('\n');
                }
                yaml.append("                    ]}]}}}}\n");
            } else {
                yaml.append("                - Pattern: '").append(patterns.get(i)).append("'\n");
            }
        }
        return yaml.toString();
    }

    /** The patterns of the template's stream event source mapping, as Lambda gets them; none without a filter. */
    static List<String> patterns(DeploymentTemplate template) {
        DeploymentTemplate.Node mapping = template.streamEventSourceMapping();
        if (!mapping.has("FilterCriteria")) {
            return List.of();
        }
        return mapping.get("FilterCriteria").list("Filters").stream().map(filter -> filter.text("Pattern")).toList();
    }

    /**
     * Those of Tally's own types that the patterns do not drop in both images: their records reach the function (which
     * skips them), as those of a derived type a domain added without regenerating the filter.
     */
    static Set<String> notDropped(List<String> ownTypes, List<String> patterns) {
        Map<String, Set<String>> dropped = droppedTypes(patterns);
        Set<String> missing = new TreeSet<>();
        for (String image : IMAGES) {
            Set<String> types = dropped.getOrDefault(image, Set.of());
            ownTypes.stream().filter(type -> !types.contains(type)).forEach(missing::add);
        }
        return missing;
    }

    /** Types the patterns drop that are not Tally's own: records the engine may have to derive or dead-letter. */
    static Set<String> droppedNotOwn(List<String> ownTypes, List<String> patterns) {
        Set<String> extra = new TreeSet<>();
        droppedTypes(patterns).values().forEach(extra::addAll);
        ownTypes.forEach(extra::remove);
        return extra;
    }

    /**
     * The entity types the patterns drop, per image: the {@code anything-but} list of each image's entity type. A
     * record whose images all carry one of them matches no pattern.
     *
     * @throws IllegalArgumentException if a pattern is not JSON
     */
    static Map<String, Set<String>> droppedTypes(List<String> patterns) {
        Map<String, Set<String>> dropped = new LinkedHashMap<>();
        for (String pattern : patterns) {
            JsonNode root;
            try {
                root = JSON.readTree(pattern);
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("a filter pattern is not JSON: " + pattern, e);
            }
            for (String image : IMAGES) {
                for (JsonNode condition : root.path("dynamodb").path(image).path(TableSchema.ENTITY_TYPE).path("S")) {
                    JsonNode names = condition.path("anything-but");
                    if (names.isArray()) {
                        Set<String> set = dropped.computeIfAbsent(image, k -> new TreeSet<>());
                        names.forEach(name -> set.add(name.asText()));
                    }
                }
            }
        }
        return dropped;
    }

    private static String quoted(List<String> names) {
        return String.join(", ", names.stream().map(name -> "\"" + name + "\"").toList());
    }
}
