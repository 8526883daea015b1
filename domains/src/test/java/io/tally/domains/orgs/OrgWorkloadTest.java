package io.tally.domains.orgs;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Key;
import io.tally.core.workload.WorkloadContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class OrgWorkloadTest {
    /** A workload context that records the writes: a put as its item, a delete as its key. */
    private static final class Recorder implements WorkloadContext {
        private final Random random = new Random(7);
        private final List<Object> writes = new ArrayList<>();
        private long millis;
        private int ids;

        @Override
        public Random random() {
            return random;
        }

        @Override
        public int skewed(int size) {
            return random.nextInt(size);
        }

        @Override
        public Instant now() {
            return Instant.parse("2026-01-01T00:00:00Z").plusMillis(millis++);
        }

        @Override
        public String nextId(String prefix) {
            return prefix + ids++;
        }

        @Override
        public List<String> users() {
            return List.of("u1");
        }

        @Override
        public String user() {
            return "u1";
        }

        @Override
        public void put(Map<String, AttributeValue> item) {
            writes.add(item);
        }

        @Override
        public void delete(Key key) {
            writes.add(key);
        }
    }

    private static List<Object> writes(int steps) {
        Recorder recorder = new Recorder();
        OrgWorkload workload = new OrgWorkload(recorder);
        for (int i = 0; i < steps; i++) {
            workload.step();
        }
        return recorder.writes;
    }

    @Test
    void deletedTeamsAndEmployees_freeTheirIds_whichComeBack_andTheWritesRepeat() {
        List<Object> writes = writes(3_000);
        assertThat(writes).isEqualTo(writes(3_000));
        Set<String> freed = new HashSet<>();
        int reused = 0;
        for (int i = 0; i < writes.size(); i++) {
            if (writes.get(i) instanceof Key key && key.sk().startsWith(OrgKeys.TEAM_PREFIX)) {
                String teamId = key.sk().substring(OrgKeys.TEAM_PREFIX.length());
                assertThat(writes.get(i + 1)).as("the reservation goes with the team").isEqualTo(OrgKeys.teamRef(teamId));
                freed.add(teamId);
            } else if (writes.get(i) instanceof Key key && key.sk().startsWith(OrgKeys.EMPLOYEE_PREFIX)) {
                String employeeId = key.sk().substring(OrgKeys.EMPLOYEE_PREFIX.length());
                assertThat(writes.get(i + 1)).isEqualTo(OrgKeys.employeeRef(employeeId));
                freed.add(employeeId);
            } else if (writes.get(i) instanceof Map<?, ?> item && Orgs.TEAM.isTypeOf(cast(item))
                    && freed.contains(Team.fromItem(cast(item)).teamId())) {
                reused++;
            }
        }
        assertThat(freed).isNotEmpty();
        assertThat(reused).isPositive();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, AttributeValue> cast(Map<?, ?> item) {
        return (Map<String, AttributeValue>) item;
    }
}
