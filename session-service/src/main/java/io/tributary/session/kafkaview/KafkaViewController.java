package io.tributary.session.kafkaview;

import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Kafka as the admin console shows it, {@code /api/v1/kafka}; 503 when Kafka does not answer. */
@RestController
@RequestMapping(path = "/api/v1/kafka", produces = "application/json")
public class KafkaViewController {

    public record GroupSummary(String groupId, String state, int members, long lag) {}

    private final KafkaInspector kafka;

    public KafkaViewController(KafkaInspector kafka) {
        this.kafka = kafka;
    }

    @GetMapping("/topics")
    public List<KafkaInspector.TopicView> kafkaTopics() {
        return kafka.topics();
    }

    @GetMapping("/groups")
    public List<GroupSummary> kafkaGroups() {
        return kafka.groups(kafka.groupIds()).values().stream()
                .map(g -> new GroupSummary(g.groupId(), g.state(), g.members().size(), g.lag()))
                .toList();
    }

    @GetMapping("/groups/{groupId}")
    public KafkaInspector.GroupView kafkaGroup(@PathVariable String groupId) {
        return kafka.group(groupId);
    }
}
