package io.tributary.session.mapping;

import java.util.List;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** MQTT-to-Kafka mapping rules on the admin API (bearer token, like all of {@code /api/v1}). */
@RestController
public class MappingRuleController {

    static final String PATH = "/api/v1/rules/mqtt-to-kafka";

    private final MappingRuleService rules;

    public MappingRuleController(MappingRuleService rules) {
        this.rules = rules;
    }

    @PostMapping(path = PATH, consumes = "application/json", produces = "application/json")
    public ResponseEntity<MappingRuleView> create(@RequestBody(required = false) MappingRuleRequest request) {
        return ResponseEntity.status(HttpStatus.CREATED).body(rules.create(request));
    }

    @GetMapping(path = PATH, produces = "application/json")
    public List<MappingRuleView> list() {
        return rules.list();
    }

    @GetMapping(path = PATH + "/{id}", produces = "application/json")
    public MappingRuleView get(@PathVariable long id) {
        return rules.get(id);
    }

    @DeleteMapping(PATH + "/{id}")
    public ResponseEntity<Void> delete(@PathVariable long id) {
        rules.delete(id);
        return ResponseEntity.noContent().build();
    }
}
