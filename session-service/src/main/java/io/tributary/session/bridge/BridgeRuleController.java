package io.tributary.session.bridge;

import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** Kafka-to-MQTT rules on the admin API (bearer token, like all of {@code /api/v1}). */
@RestController
public class BridgeRuleController {

    static final String PATH = "/api/v1/rules/kafka-to-mqtt";

    private final BridgeRuleService rules;

    public BridgeRuleController(BridgeRuleService rules) {
        this.rules = rules;
    }

    @ApiResponse(responseCode = "409", description = "a rule with the same Kafka and MQTT topic exists")
    @PostMapping(path = PATH, consumes = "application/json", produces = "application/json")
    @ResponseStatus(HttpStatus.CREATED)
    public BridgeRule createBridgeRule(@RequestBody(required = false) BridgeRuleRequest request) {
        return rules.create(request);
    }

    @GetMapping(path = PATH, produces = "application/json")
    public List<BridgeRule> listBridgeRules() {
        return rules.list();
    }

    @ApiResponse(responseCode = "404", description = "no such rule")
    @GetMapping(path = PATH + "/{id}", produces = "application/json")
    @ResponseStatus(HttpStatus.OK) // with @ApiResponse errors declared, springdoc lists the 200 only so
    public BridgeRule getBridgeRule(@PathVariable long id) {
        return rules.get(id);
    }

    @ApiResponse(responseCode = "404", description = "no such rule")
    @DeleteMapping(PATH + "/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void deleteBridgeRule(@PathVariable long id) {
        rules.delete(id);
    }
}
