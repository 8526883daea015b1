package io.tally.core.template;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The deployment's AWS SAM template ({@code infra/template.yaml}), read for the settings the local runtime shares
 * with AWS: the table definition and the stream's event source mapping. The template is their single source; the
 * build copies it into this module's jar as {@value #RESOURCE}.
 *
 * <p>The local runtime cannot resolve parameters or intrinsic functions, so a value it reads must be a literal in
 * the template. The accessors check that (a short-form tag such as {@code !Ref}, or a long-form {@code Ref:} object
 * where a literal belongs, is refused) and name the property's path when it is not, so that a template edit which
 * would break the local runtime fails its tests with a readable message.
 */
public final class DeploymentTemplate {
    /** Where the template sits on the classpath. */
    public static final String RESOURCE = "/io/tally/infra/template.yaml";
    /** The stream processor's function and its stream event in the template. */
    public static final String STREAM_FUNCTION = "StreamProcessorFunction";
    public static final String STREAM_EVENT = "Stream";

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final JsonNode root;
    private final String origin;
    /** JSON pointers of the values written with a CloudFormation tag ({@code !Ref}, {@code !Sub}, ...), to the tag. */
    private final Map<String, String> tagged;

    private DeploymentTemplate(JsonNode root, String origin, Map<String, String> tagged) {
        this.root = root;
        this.origin = origin;
        this.tagged = Map.copyOf(tagged);
    }

    /** The template this build carries. */
    public static DeploymentTemplate bundled() {
        try (InputStream in = DeploymentTemplate.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the deployment template " + RESOURCE + " is not on the classpath "
                        + "(the core module's build copies infra/template.yaml there)");
            }
            return parse(in.readAllBytes(), RESOURCE);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + RESOURCE, e);
        }
    }

    /** A template file, e.g. {@code infra/template.yaml} of a checkout. */
    public static DeploymentTemplate read(Path file) {
        try {
            return parse(Files.readAllBytes(file), file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the deployment template " + file, e);
        }
    }

    static DeploymentTemplate parse(byte[] yaml, String origin) {
        JsonNode root;
        Map<String, String> tagged = new HashMap<>();
        try {
            root = YAML.readTree(yaml);
            // The tree drops tags (`!Ref Stage` reads as "Stage"), so find them in a pass over the tokens.
            try (JsonParser parser = YAML.getFactory().createParser(yaml)) {
                for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                    if (parser.getTypeId() == null || token == JsonToken.FIELD_NAME) {
                        continue;
                    }
                    JsonStreamContext context = parser.getParsingContext();
                    if (token.isStructStart()) {
                        context = context.getParent();
                    }
                    tagged.put(context.pathAsPointer().toString(), String.valueOf(parser.getTypeId()));
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(origin + " is not valid YAML: " + e.getMessage(), e);
        }
        if (root == null || !root.path("Resources").isObject()) {
            throw new IllegalArgumentException(origin + " has no Resources section");
        }
        return new DeploymentTemplate(root, origin, tagged);
    }

    /** The {@code Properties} of a resource, checked to be of the given type. */
    public Node resourceProperties(String logicalId, String type) {
        JsonNode resource = root.path("Resources").path(logicalId);
        if (!resource.isObject()) {
            throw new IllegalArgumentException(origin + " has no resource " + logicalId);
        }
        String actual = resource.path("Type").asText();
        if (!actual.equals(type)) {
            throw new IllegalArgumentException(origin + ": resource " + logicalId + " is a " + actual + ", not a " + type);
        }
        return new Node(resource.path("Properties"), "Resources." + logicalId + ".Properties",
                "/Resources/" + logicalId + "/Properties");
    }

    /**
     * The properties of the stream processor's event source mapping (its {@code DynamoDB} event): the settings the
     * local poller and the benchmark share with AWS.
     */
    public Node streamEventSourceMapping() {
        Node event = resourceProperties(STREAM_FUNCTION, "AWS::Serverless::Function").get("Events").get(STREAM_EVENT);
        String type = event.text("Type");
        if (!type.equals("DynamoDB")) {
            throw new IllegalArgumentException(origin + ": " + event.path() + ".Type is " + type + ", not DynamoDB");
        }
        return event.get("Properties");
    }

    /** The writer's function in the template. */
    public static final String WRITER_FUNCTION = "WriterFunction";

    /**
     * An environment variable a function of the template gets: its own ({@code Properties.Environment.Variables}),
     * else every function's ({@code Globals.Function.Environment.Variables}), as SAM merges them; empty when neither
     * sets it. A value that is not a literal (e.g. {@code !Ref}) reads as its reference's name.
     */
    public String environmentVariable(String function, String name) {
        resourceProperties(function, "AWS::Serverless::Function");
        JsonNode own = root.path("Resources").path(function).path("Properties").path("Environment").path("Variables")
                .path(name);
        if (!own.isMissingNode()) {
            return own.asText();
        }
        return root.path("Globals").path("Function").path("Environment").path("Variables").path(name).asText("");
    }

    /** The whole template as a tree, for tests that check the deployment's settings. */
    public JsonNode tree() {
        return root.deepCopy();
    }

    /**
     * A part of the template with its path, for error messages. Accessors of literals refuse anything else: the
     * local runtime cannot resolve parameters or intrinsic functions.
     */
    public final class Node {
        private final JsonNode node;
        private final String path;
        private final String pointer;

        Node(JsonNode node, String path, String pointer) {
            this.node = node;
            this.path = path;
            this.pointer = pointer;
        }

        public String path() {
            return path;
        }

        public boolean has(String name) {
            return node.has(name);
        }

        public Node get(String name) {
            JsonNode child = node.get(name);
            if (child == null || child.isNull()) {
                throw problem(path + "." + name, "is missing");
            }
            String childPointer = childPointer(name);
            if (tagged.containsKey(childPointer)) {
                throw problem(path + "." + name, "is a CloudFormation function (!Ref, !Sub, ...)");
            }
            return new Node(child, path + "." + name, childPointer);
        }

        public List<Node> list(String name) {
            Node child = get(name);
            if (!child.node.isArray()) {
                throw problem(child.path, "must be a list");
            }
            List<Node> items = new ArrayList<>();
            for (int i = 0; i < child.node.size(); i++) {
                String itemPointer = child.pointer + "/" + i;
                if (tagged.containsKey(itemPointer)) {
                    throw problem(child.path + "[" + i + "]", "is a CloudFormation function (!Ref, !Sub, ...)");
                }
                items.add(new Node(child.node.get(i), child.path + "[" + i + "]", itemPointer));
            }
            return items;
        }

        /** An optional list: empty when absent. */
        public List<Node> listOrEmpty(String name) {
            return has(name) ? list(name) : List.of();
        }

        public String text(String name) {
            Node child = get(name);
            if (!child.node.isTextual()) {
                throw problem(child.path, "must be a literal string, not " + child.node);
            }
            return child.node.asText();
        }

        public int integer(String name) {
            Node child = get(name);
            // YAML may give a number or a numeric string; both are literals.
            if (child.node.isIntegralNumber() && child.node.canConvertToInt()) {
                return child.node.intValue();
            }
            if (child.node.isTextual()) {
                try {
                    return Integer.parseInt(child.node.asText().trim());
                } catch (NumberFormatException e) {
                    // reported below
                }
            }
            throw problem(child.path, "must be a literal whole number, not " + child.node);
        }

        /**
         * A literal whole number, or a {@code !Ref} to a template parameter: then the parameter's literal
         * {@code Default}, which is what the local runtime takes (a deployment may set the parameter to another value).
         */
        public int integerOrParameterDefault(String name) {
            String tag = tagged.get(childPointer(name));
            if (tag == null) {
                return integer(name);
            }
            String parameter = node.path(name).asText();
            JsonNode declared = root.path("Parameters").path(parameter).path("Default");
            if (!tag.replace("!", "").equals("Ref") || !(declared.isIntegralNumber() && declared.canConvertToInt()
                    || declared.isTextual() && declared.asText().trim().matches("-?[0-9]{1,9}"))) {
                throw problem(path + "." + name, "is a CloudFormation function other than a !Ref to a parameter whose"
                        + " Default is a literal whole number");
            }
            return declared.isTextual() ? Integer.parseInt(declared.asText().trim()) : declared.intValue();
        }

        /** The JSON pointer of a property of this node (its name escaped as RFC 6901 says). */
        private String childPointer(String name) {
            return pointer + "/" + name.replace("~", "~0").replace("/", "~1");
        }

        public boolean bool(String name) {
            Node child = get(name);
            if (child.node.isBoolean()) {
                return child.node.booleanValue();
            }
            if (child.node.isTextual() && (child.node.asText().equals("true") || child.node.asText().equals("false"))) {
                return Boolean.parseBoolean(child.node.asText());
            }
            throw problem(child.path, "must be a literal true or false, not " + child.node);
        }

        public List<String> texts(String name) {
            List<String> values = new ArrayList<>();
            for (Node item : list(name)) {
                if (!item.node.isTextual()) {
                    throw problem(item.path, "must be a literal string");
                }
                values.add(item.node.asText());
            }
            return values;
        }

        private IllegalArgumentException problem(String at, String what) {
            return new IllegalArgumentException(origin + ": " + at + " " + what
                    + " (the local runtime reads it from the template; see the comment at the top of the template)");
        }

        @Override
        public String toString() {
            return path + "=" + node;
        }
    }
}
