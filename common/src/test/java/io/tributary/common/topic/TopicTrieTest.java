package io.tributary.common.topic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class TopicTrieTest {

    private static List<String> matches(TopicTrie<String, String> trie, String topic) {
        List<String> out = new ArrayList<>();
        trie.match(topic, (k, v) -> out.add(v));
        out.sort(null);
        return out;
    }

    @Test
    void exact_and_wildcard_filters_match_per_specification() {
        TopicTrie<String, String> trie = new TopicTrie<>();
        for (String f : List.of(
                "sport/tennis/player1",
                "sport/tennis/+",
                "sport/#",
                "#",
                "+/+",
                "+",
                "/+",
                "sport/+/player1",
                "$SYS/#",
                "+/monitor/Clients")) {
            trie.put(f, "c", f);
        }
        assertThat(matches(trie, "sport/tennis/player1"))
                .containsExactly("#", "sport/#", "sport/+/player1", "sport/tennis/+", "sport/tennis/player1");
        assertThat(matches(trie, "sport")).containsExactly("#", "+", "sport/#");
        assertThat(matches(trie, "/finance")).containsExactly("#", "+/+", "/+");
        assertThat(matches(trie, "$SYS/monitor/Clients")).containsExactly("$SYS/#");
        assertThat(matches(trie, "$SYS")).containsExactly("$SYS/#");
    }

    @Test
    void removing_last_entry_prunes_and_stops_matching() {
        TopicTrie<String, Integer> trie = new TopicTrie<>();
        trie.put("a/b/c", "c1", 1);
        trie.put("a/b/c", "c2", 2);
        assertThat(trie.entryCount()).isEqualTo(2);
        assertThat(trie.filterCount()).isEqualTo(1);
        assertThat(trie.remove("a/b/c", "c1")).isEqualTo(1);
        assertThat(trie.remove("a/b/c", "c1")).isNull();
        assertThat(trie.remove("a/b/x", "c2")).isNull();
        assertThat(trie.remove("a/b/c", "c2")).isEqualTo(2);
        assertThat(trie.isEmpty()).isTrue();
        assertThat(trie.filterCount()).isZero();
        List<Integer> seen = new ArrayList<>();
        trie.match("a/b/c", (k, v) -> seen.add(v));
        assertThat(seen).isEmpty();
    }

    @Test
    void trie_agrees_with_reference_matcher_on_random_filters() {
        Random random = new Random(42);
        String[] words = {"a", "b", "c", "", "$x"};
        TopicTrie<String, String> trie = new TopicTrie<>();
        List<String> filters = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            StringBuilder f = new StringBuilder();
            int levels = 1 + random.nextInt(4);
            for (int l = 0; l < levels; l++) {
                if (l > 0) {
                    f.append('/');
                }
                int r = random.nextInt(8);
                if (r == 0) {
                    f.append('+');
                } else if (r == 1 && l == levels - 1) {
                    f.append('#');
                } else {
                    f.append(words[random.nextInt(words.length)]);
                }
            }
            String filter = f.toString();
            if (TopicFilters.topicFilterProblem(filter) == null) {
                filters.add(filter);
                trie.put(filter, filter, filter);
            }
        }
        for (int i = 0; i < 500; i++) {
            StringBuilder t = new StringBuilder();
            int levels = 1 + random.nextInt(4);
            for (int l = 0; l < levels; l++) {
                if (l > 0) {
                    t.append('/');
                }
                t.append(words[random.nextInt(words.length)]);
            }
            String topic = t.toString();
            TreeSet<String> expected = new TreeSet<>();
            for (String f : filters) {
                if (TopicFilters.matches(f, topic)) {
                    expected.add(f);
                }
            }
            assertThat(new TreeSet<>(matches(trie, topic))).as(topic).isEqualTo(expected);
        }
    }
}
