package io.tally.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ShardTokenTest {
    /** The token written out from its definition: the first 80 bits of SHA-256 as 16 base32 digits, big-endian. */
    private static String expected(String shardId) throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(shardId.getBytes(StandardCharsets.UTF_8));
        BigInteger bits = new BigInteger(1, Arrays.copyOf(digest, 10));
        String alphabet = "abcdefghijklmnopqrstuvwxyz234567";
        StringBuilder token = new StringBuilder();
        for (int i = 15; i >= 0; i--) {
            token.append(alphabet.charAt(bits.shiftRight(5 * i).intValue() & 31));
        }
        return token.toString();
    }

    @Test
    void token_isTheFirstEightyBitsOfSha256InBase32() throws Exception {
        String shard = "shardId-00000001536019333420-77d2fcb3";
        assertThat(ShardToken.of(shard)).hasSize(16).isEqualTo(expected(shard));
    }

    @Test
    void token_staysTheSameAcrossManyShards() throws Exception {
        String first = "shardId-first";
        String token = ShardToken.of(first);
        for (int i = 0; i < 3_000; i++) {
            String shard = "shardId-" + i;
            assertThat(ShardToken.of(shard)).isEqualTo(expected(shard));
        }
        assertThat(ShardToken.of(first)).isEqualTo(token).isEqualTo(expected(first));
    }
}
