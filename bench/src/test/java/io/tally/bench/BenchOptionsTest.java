package io.tally.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class BenchOptionsTest {

    @Test
    void flagsTakeNoValue_andOptionsTakeTheNextArgument() {
        BenchOptions options = BenchOptions.parse(new String[]{"--load", "--records", "500", "--writer",
                "--render", "bench/results/latest.json", "--seed", "7", "--cold-start", "--load-seconds", "3"});

        assertThat(options.load).isTrue();
        assertThat(options.writer).isTrue();
        assertThat(options.coldStart).isTrue();
        assertThat(options.records).isEqualTo(500);
        assertThat(options.render).isEqualTo(Path.of("bench/results/latest.json"));
        assertThat(options.seed).isEqualTo(7L);
        assertThat(options.loadSeconds).isEqualTo(3);
        assertThat(options.markdown).isEqualTo(Path.of("BENCHMARKS.md"));
    }

    @Test
    void theFloorAlone_isAFlag_withAJsonOfItsOwn() {
        BenchOptions options = BenchOptions.parse(new String[]{"--floor", "--floor-json", "/tmp/floor.json"});

        assertThat(options.floor).isTrue();
        assertThat(options.floorJson).isEqualTo(Path.of("/tmp/floor.json"));
        assertThat(BenchOptions.parse(new String[0]).floorJson).isEqualTo(Path.of("bench/results/floor.json"));
    }

    @Test
    void anOptionWithoutItsValue_orAnUnknownOne_isRefusedByName() {
        assertThatThrownBy(() -> BenchOptions.parse(new String[]{"--records"}))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("'--records'");
        assertThatThrownBy(() -> BenchOptions.parse(new String[]{"--fast"}))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("Unknown option: '--fast'");
        assertThatThrownBy(() -> BenchOptions.parse(new String[]{"--records", "many"}))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("--records")
                .hasMessageContaining("many");
        assertThatThrownBy(() -> BenchOptions.parse(new String[]{"--runs", "0"}))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessage("--runs must be positive");
    }

    @Test
    void help_isAnAnswer_listingEveryOptionWithItsDefault() {
        BenchOptions options = BenchOptions.parse(new String[]{"--help", "--runs", "0"});
        assertThat(options.help).isTrue();

        StringWriter usage = new StringWriter();
        new CommandLine(options).usage(new PrintWriter(usage));
        assertThat(usage.toString()).startsWith("Usage: tally-bench")
                .contains("--records=N", "20000)", "--aws-latency", "--cold-start", "--load", "--writer",
                        "--floor", "--workloads=LIST", "Exit status:");
    }

    @Test
    void theAwsLatencyModeTakesItsProcessorsAndSharesAndRefusesOthers() {
        BenchOptions options = BenchOptions.parse(new String[]{"--aws-latency", "--aws-seconds", "3",
                "--aws-processors", "tally", "--aws-shares", "0, 0.8"});

        assertThat(options.awsLatency).isTrue();
        assertThat(options.awsSeconds).isEqualTo(3);
        assertThat(options.awsProcessors).containsExactly("tally");
        assertThat(options.awsShares).containsExactly(0.0, 0.8);
        assertThat(BenchOptions.parse(new String[0]).awsShares).isEqualTo(AwsLatencyRun.SHARES);
        assertThatThrownBy(() -> BenchOptions.parse(new String[]{"--aws-processors", "tally,fast"}))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("--aws-processors");
        assertThatThrownBy(() -> BenchOptions.parse(new String[]{"--aws-shares", "0.5,-1"}))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("--aws-shares");
        assertThatThrownBy(() -> BenchOptions.parse(new String[]{"--aws-shares", "half"}))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("--aws-shares");
        assertThatThrownBy(() -> BenchOptions.parse(new String[]{"--aws-latency", "--aws-seconds", "0"}))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("--aws-seconds");
    }

    @Test
    void theModelsListsCanBeEmptiedAndItsRangesAreChecked() {
        BenchOptions options = BenchOptions.parse(new String[]{"--aws-model", "--model-shares", "0.8",
                "--model-windows=", "--model-memories=", "--model-repeats", "2"});
        assertThat(options.awsModel).isTrue();
        assertThat(options.modelShares).containsExactly(0.8);
        assertThat(options.modelWindows).isEmpty();
        assertThat(options.modelMemories).isEmpty();
        assertThat(options.modelRepeats).isEqualTo(2);
        assertThat(BenchOptions.parse(new String[0]).modelMemories).containsExactly(512, 1024, 1769, 3008);
        assertThat(BenchOptions.parse(new String[0]).modelWarmUp).isEqualTo(20000);
        assertThat(BenchOptions.parse(new String[]{"--model-warm-up", "20000"}).modelWarmUp).isEqualTo(20000);
        assertThatThrownBy(() -> BenchOptions.parse(new String[]{"--model-warm-up", "100"}))
                .hasMessageContaining("--model-warm-up takes at least 2000");
        assertThatThrownBy(() -> BenchOptions.parse(new String[]{"--model-memories", "64"}))
                .hasMessageContaining("--model-memories");
        assertThatThrownBy(() -> BenchOptions.parse(new String[]{"--model-windows", "0"}))
                .hasMessageContaining("--model-windows");
        assertThatThrownBy(() -> BenchOptions.parse(new String[]{"--model-memories", "lots"}))
                .hasMessageContaining("whole numbers");
    }
}
