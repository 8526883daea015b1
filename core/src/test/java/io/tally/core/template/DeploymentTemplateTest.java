package io.tally.core.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DeploymentTemplateTest {
    private static DeploymentTemplate parse(String yaml) {
        return DeploymentTemplate.parse(yaml.getBytes(StandardCharsets.UTF_8), "test.yaml");
    }

    private static final String TEMPLATE = """
            Parameters:
              Size:
                Type: Number
                Default: 5
            Resources:
              Thing:
                Type: AWS::Test::Thing
                Properties:
                  Name: literal
                  Tagged: !Ref Size
                  LongForm:
                    Ref: Size
                  Count: 7
                  CountText: "8"
                  Flag: true
                  Items: [a, !Sub "${Size}", c]
                  Nested:
                    Inner: !GetAtt Other.Arn
            """;

    @Test
    void aFunctionsEnvironmentVariable_isItsOwn_elseTheGlobalOne_elseEmpty() {
        DeploymentTemplate template = parse("""
                Globals:
                  Function:
                    Environment:
                      Variables:
                        OPTIONS: global
                        STAGE: prod
                Resources:
                  Own:
                    Type: AWS::Serverless::Function
                    Properties:
                      Environment:
                        Variables:
                          OPTIONS: own
                  Plain:
                    Type: AWS::Serverless::Function
                    Properties:
                      Handler: x
                  Thing:
                    Type: AWS::Test::Thing
                """);
        assertThat(template.environmentVariable("Own", "OPTIONS")).isEqualTo("own");
        assertThat(template.environmentVariable("Own", "STAGE")).isEqualTo("prod");
        assertThat(template.environmentVariable("Plain", "OPTIONS")).isEqualTo("global");
        assertThat(template.environmentVariable("Plain", "MISSING")).isEmpty();
        assertThatThrownBy(() -> template.environmentVariable("Thing", "OPTIONS"))
                .hasMessageContaining("not a AWS::Serverless::Function");
        assertThatThrownBy(() -> template.environmentVariable("Nothing", "OPTIONS"))
                .hasMessageContaining("no resource Nothing");
    }

    @Test
    void literals_readWithTheirTypes() {
        DeploymentTemplate.Node thing = parse(TEMPLATE).resourceProperties("Thing", "AWS::Test::Thing");
        assertThat(thing.text("Name")).isEqualTo("literal");
        assertThat(thing.integer("Count")).isEqualTo(7);
        assertThat(thing.integer("CountText")).isEqualTo(8);
        assertThat(thing.bool("Flag")).isTrue();
    }

    @Test
    void aRefToAParameter_readsItsDefault_whereTheLocalRuntimeTakesIt_andNothingElseDoes() {
        DeploymentTemplate.Node thing = parse(TEMPLATE).resourceProperties("Thing", "AWS::Test::Thing");
        assertThat(thing.integerOrParameterDefault("Tagged")).isEqualTo(5);
        assertThat(thing.integerOrParameterDefault("Count")).isEqualTo(7);
        assertThatThrownBy(() -> thing.integer("Tagged")).hasMessageContaining("CloudFormation function");
        DeploymentTemplate.Node other = parse("""
                Parameters:
                  NoDefault:
                    Type: Number
                  Word:
                    Type: String
                    Default: many
                Resources:
                  Thing:
                    Type: AWS::Test::Thing
                    Properties:
                      Missing: !Ref NoDefault
                      NotANumber: !Ref Word
                      Nowhere: !Ref Absent
                      Substituted: !Sub "5"
                """).resourceProperties("Thing", "AWS::Test::Thing");
        for (String name : new String[] {"Missing", "NotANumber", "Nowhere", "Substituted"}) {
            assertThatThrownBy(() -> other.integerOrParameterDefault(name)).as(name)
                    .hasMessageContaining("Resources.Thing.Properties." + name)
                    .hasMessageContaining("a !Ref to a parameter whose Default is a literal whole number");
        }
    }

    @Test
    void shortFormTag_whereALiteralBelongs_isRefusedWithItsPath() {
        DeploymentTemplate.Node thing = parse(TEMPLATE).resourceProperties("Thing", "AWS::Test::Thing");
        assertThatThrownBy(() -> thing.text("Tagged"))
                .hasMessageContaining("Resources.Thing.Properties.Tagged")
                .hasMessageContaining("CloudFormation function");
        assertThatThrownBy(() -> thing.texts("Items"))
                .hasMessageContaining("Resources.Thing.Properties.Items[1]");
        assertThatThrownBy(() -> thing.get("Nested").text("Inner"))
                .hasMessageContaining("Resources.Thing.Properties.Nested.Inner");
    }

    @Test
    void longFormFunction_whereALiteralBelongs_isRefused() {
        DeploymentTemplate.Node thing = parse(TEMPLATE).resourceProperties("Thing", "AWS::Test::Thing");
        assertThatThrownBy(() -> thing.text("LongForm")).hasMessageContaining("must be a literal string");
        assertThatThrownBy(() -> thing.integer("LongForm")).hasMessageContaining("must be a literal whole number");
    }

    @Test
    void missingPropertyOrResource_orWrongType_namesIt() {
        DeploymentTemplate template = parse(TEMPLATE);
        assertThatThrownBy(() -> template.resourceProperties("Thing", "AWS::Test::Thing").text("Absent"))
                .hasMessageContaining("Resources.Thing.Properties.Absent is missing");
        assertThatThrownBy(() -> template.resourceProperties("Nope", "AWS::Test::Thing"))
                .hasMessageContaining("no resource Nope");
        assertThatThrownBy(() -> template.resourceProperties("Thing", "AWS::DynamoDB::Table"))
                .hasMessageContaining("is a AWS::Test::Thing, not a AWS::DynamoDB::Table");
    }

    @Test
    void notYamlOrNoResources_isRefused() {
        assertThatThrownBy(() -> parse("a: [unclosed")).hasMessageContaining("not valid YAML");
        assertThatThrownBy(() -> parse("Parameters: {}")).hasMessageContaining("no Resources section");
    }

    @Test
    void bundledTemplate_isTheCheckoutsInfraTemplate() throws Exception {
        // The build copies infra/template.yaml into the jar; a stale or different copy would split the source.
        byte[] checkout = java.nio.file.Files.readAllBytes(Path.of("..", "infra", "template.yaml"));
        byte[] bundled;
        try (var in = DeploymentTemplate.class.getResourceAsStream(DeploymentTemplate.RESOURCE)) {
            bundled = in.readAllBytes();
        }
        assertThat(bundled).isEqualTo(checkout);
        assertThat(DeploymentTemplate.bundled().tree().path("Resources").has("Table")).isTrue();
    }
}
