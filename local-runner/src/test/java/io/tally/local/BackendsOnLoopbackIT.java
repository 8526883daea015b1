package io.tally.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code --host 0.0.0.0} opens the writer API to the network, not DynamoDB Local (which takes any credentials) nor the
 * event bus: they stay on loopback unless {@code --expose-backends} says otherwise.
 */
class BackendsOnLoopbackIT {
    /** This machine's addresses other than loopback (IPv4), where a server bound to every interface answers. */
    private static List<InetAddress> otherAddresses() throws IOException {
        return Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
                .flatMap(nic -> Collections.list(nic.getInetAddresses()).stream())
                .filter(address -> address instanceof Inet4Address && !address.isLoopbackAddress()).toList();
    }

    private static boolean answers(InetAddress address, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, port), 2_000);
            return true;
        } catch (IOException refused) {
            return false;
        }
    }

    @Test
    void onEveryInterface_theApiAnswersEverywhere_theBackendsOnLoopbackOnly_unlessExposed() throws IOException {
        List<InetAddress> others = otherAddresses();
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (LocalRunner runner = LocalRunner.start(RunnerSettings.ephemeral().withHost("0.0.0.0"))) {
            assertThat(runner.dynamoDbEndpoint().getHost()).isEqualTo(loopback.getHostAddress());
            assertThat(runner.eventsEndpoint().getHost()).isEqualTo(loopback.getHostAddress());
            assertThat(answers(loopback, runner.dynamoDbPort())).isTrue();
            assertThat(answers(loopback, runner.eventsEndpoint().getPort())).isTrue();
            for (InetAddress other : others) {
                assertThat(answers(other, runner.port())).as("the API on %s", other).isTrue();
                assertThat(answers(other, runner.dynamoDbPort())).as("DynamoDB Local on %s", other).isFalse();
                assertThat(answers(other, runner.eventsEndpoint().getPort())).as("the bus on %s", other).isFalse();
            }
        }
        try (LocalRunner exposed = LocalRunner.start(RunnerSettings.ephemeral().withHost("0.0.0.0")
                .withExposeBackends(true))) {
            for (InetAddress other : others) {
                assertThat(answers(other, exposed.dynamoDbPort())).as("DynamoDB Local on %s", other).isTrue();
            }
        }
    }
}
