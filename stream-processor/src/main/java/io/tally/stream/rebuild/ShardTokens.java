package io.tally.stream.rebuild;

import io.tally.core.Items;
import io.tally.core.ShardCursorItem;
import io.tally.core.TableSchema;
import io.tally.stream.engine.Watermarks;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The watermark pruner's judgement of shard tokens, live or gone. A token absent from a listing of the stream's
 * shards made after an item holding it was read is gone for good (a shard is listed from its creation, before it
 * can write, until its records expire); so the stream is listed again only when a page holds a token not judged
 * yet, not once per page. Thread-safe: the segments of a parallel scan share one.
 */
final class ShardTokens {
    private final Set<String> live = ConcurrentHashMap.newKeySet();
    private final Set<String> gone = ConcurrentHashMap.newKeySet();

    ShardTokens(Set<String> live) {
        this.live.addAll(live);
    }

    /** The tokens judged live so far (every token not in it that a judged page held is gone). */
    Set<String> live() {
        return live;
    }

    /**
     * Judges the tokens of a page just read, listing the stream again if it holds any not judged yet. The scan's
     * segments judge their pages one at a time, so that two pages with the same new token list the stream once.
     */
    synchronized void judge(List<Map<String, AttributeValue>> page, Supplier<Set<String>> listing) {
        Set<String> unjudged = new HashSet<>();
        for (Map<String, AttributeValue> item : page) {
            for (String token : tokensOf(item)) {
                if (!live.contains(token) && !gone.contains(token)) {
                    unjudged.add(token);
                }
            }
        }
        if (!unjudged.isEmpty()) {
            live.addAll(listing.get());
            unjudged.removeAll(live);
            gone.addAll(unjudged);
        }
    }

    /** The shard tokens an item names: its watermarks', a cursor's own, a registry entry's. */
    static Set<String> tokensOf(Map<String, AttributeValue> item) {
        Set<String> tokens = new HashSet<>();
        if (isCursor(item)) {
            tokens.add(cursorToken(item));
        } else if (isRegistryEntry(item)) {
            tokens.add(registeredToken(item));
        }
        item.keySet().stream().filter(Watermarks::isWatermark)
                .forEach(name -> tokens.add(name.substring(Watermarks.PREFIX.length())));
        return tokens;
    }

    static boolean isCursor(Map<String, AttributeValue> item) {
        AttributeValue pk = item.get(TableSchema.PK);
        return ShardCursorItem.TYPE.attributeValue().equals(Items.entityTypeName(item))
                && pk != null && pk.s() != null && pk.s().startsWith(ShardCursorItem.PREFIX);
    }

    /** Whether the item is a cursor's entry in the cursor registry ({@link ShardCursorItem#registryKey}). */
    static boolean isRegistryEntry(Map<String, AttributeValue> item) {
        AttributeValue pk = item.get(TableSchema.PK);
        AttributeValue sk = item.get(TableSchema.SK);
        return pk != null && pk.s() != null && pk.s().startsWith(ShardCursorItem.REGISTRY_PREFIX)
                && sk != null && sk.s() != null && sk.s().startsWith(ShardCursorItem.REGISTRY_SORT_PREFIX);
    }

    /** The token of the shard a registry entry names. */
    static String registeredToken(Map<String, AttributeValue> entry) {
        return ShardCursorItem.registeredToken(entry.get(TableSchema.SK).s());
    }

    /** The token of a cursor item's shard. */
    static String cursorToken(Map<String, AttributeValue> cursor) {
        return cursor.get(TableSchema.PK).s().substring(ShardCursorItem.PREFIX.length());
    }
}
