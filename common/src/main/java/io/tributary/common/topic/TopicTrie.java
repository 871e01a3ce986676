package io.tributary.common.topic;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;

/**
 * Topic filters arranged by level, mapping each filter to entries {@code K -> V} (for example client id to
 * subscription). Matching a topic name visits every entry whose filter matches it.
 *
 * <p>Readers never lock: nodes are concurrent maps, so matching on many threads (event loops, consumers) is safe
 * while filters are added and removed. Writers are serialised by one lock because pruning empty branches must not
 * race with an insert below the branch being pruned; subscription changes are rare next to matches.
 */
public final class TopicTrie<K, V> {

    private static final class Node<K, V> {
        final Map<String, Node<K, V>> children = new ConcurrentHashMap<>();
        final Map<K, V> entries = new ConcurrentHashMap<>();
    }

    private final Node<K, V> root = new Node<>();
    private final ReentrantLock writeLock = new ReentrantLock();
    // Written only under writeLock (so ++ is safe); volatile so that readers, which take no lock, see the latest.
    private volatile int filterCount;
    private volatile int entryCount;

    /** Adds or replaces the entry {@code key} under {@code filter}; returns the value it replaced, if any. */
    @SuppressWarnings("NonAtomicVolatileUpdate") // the counts change under writeLock only
    public V put(String filter, K key, V value) {
        writeLock.lock();
        try {
            Node<K, V> node = root;
            for (String level : levels(filter)) {
                node = node.children.computeIfAbsent(level, l -> new Node<>());
            }
            if (node.entries.isEmpty()) {
                filterCount++;
            }
            V previous = node.entries.put(key, value);
            if (previous == null) {
                entryCount++;
            }
            return previous;
        } finally {
            writeLock.unlock();
        }
    }

    /** Removes the entry {@code key} under {@code filter}; returns its value, or {@code null} if there was none. */
    @SuppressWarnings("NonAtomicVolatileUpdate") // the counts change under writeLock only
    public V remove(String filter, K key) {
        writeLock.lock();
        try {
            String[] levels = levels(filter);
            List<Node<K, V>> path = new ArrayList<>(levels.length + 1);
            Node<K, V> node = root;
            path.add(node);
            for (String level : levels) {
                node = node.children.get(level);
                if (node == null) {
                    return null;
                }
                path.add(node);
            }
            V removed = node.entries.remove(key);
            if (removed == null) {
                return null;
            }
            entryCount--;
            if (node.entries.isEmpty()) {
                filterCount--;
            }
            for (int i = levels.length; i > 0; i--) {
                Node<K, V> n = path.get(i);
                if (!n.entries.isEmpty() || !n.children.isEmpty()) {
                    break;
                }
                path.get(i - 1).children.remove(levels[i - 1], n);
            }
            return removed;
        } finally {
            writeLock.unlock();
        }
    }

    /** The value of entry {@code key} under exactly {@code filter}, or {@code null}. */
    public V get(String filter, K key) {
        Node<K, V> node = root;
        for (String level : levels(filter)) {
            node = node.children.get(level);
            if (node == null) {
                return null;
            }
        }
        return node.entries.get(key);
    }

    /** Calls {@code visitor} with the filter-independent entries of every filter that matches {@code topic}. */
    public void match(String topic, BiConsumer<K, V> visitor) {
        String[] levels = levels(topic);
        boolean system = topic.startsWith("$");
        match(root, levels, 0, system, visitor);
    }

    private void match(Node<K, V> node, String[] levels, int depth, boolean system, BiConsumer<K, V> visitor) {
        // Filters starting with a wildcard never match topics starting with '$' (MQTT 4.7.2).
        boolean wildcardsAllowed = !(depth == 0 && system);
        if (wildcardsAllowed) {
            Node<K, V> multi = node.children.get("#");
            if (multi != null) {
                multi.entries.forEach(visitor);
            }
        }
        if (depth == levels.length) {
            node.entries.forEach(visitor);
            return;
        }
        if (wildcardsAllowed) {
            Node<K, V> single = node.children.get("+");
            if (single != null) {
                match(single, levels, depth + 1, system, visitor);
            }
        }
        Node<K, V> exact = node.children.get(levels[depth]);
        if (exact != null) {
            match(exact, levels, depth + 1, system, visitor);
        }
    }

    /** Number of distinct filters holding at least one entry. */
    public int filterCount() {
        return filterCount;
    }

    /** Number of entries across all filters. */
    public int entryCount() {
        return entryCount;
    }

    public boolean isEmpty() {
        return entryCount == 0;
    }

    private static String[] levels(String topic) {
        return topic.split("/", -1);
    }
}
