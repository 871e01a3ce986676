package io.tributary.session.bridge;

import java.util.List;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** Kafka-to-MQTT rules on the admin API (bearer token, like all of {@code /api/v1}). */
@RestController
public class BridgeRuleController {

    static final String PATH = "/api/v1/rules/kafka-to-mqtt";

    private final BridgeRuleService rules;

    public BridgeRuleController(BridgeRuleService rules) {
        this.rules = rules;
    }

    @PostMapping(path = PATH, consumes = "application/json", produces = "application/json")
    public ResponseEntity<BridgeRule> create(@RequestBody(required = false) BridgeRuleRequest request) {
        return ResponseEntity.status(HttpStatus.CREATED).body(rules.create(request));
    }

    @GetMapping(path = PATH, produces = "application/json")
    public List<BridgeRule> list() {
        return rules.list();
    }

    @GetMapping(path = PATH + "/{id}", produces = "application/json")
    public BridgeRule get(@PathVariable long id) {
        return rules.get(id);
    }

    @DeleteMapping(PATH + "/{id}")
    public ResponseEntity<Void> delete(@PathVariable long id) {
        rules.delete(id);
        return ResponseEntity.noContent().build();
    }
}
