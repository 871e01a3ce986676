package io.tributary.session.mapping;

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

/** MQTT-to-Kafka mapping rules on the admin API (bearer token, like all of {@code /api/v1}). */
@RestController
public class MappingRuleController {

    static final String PATH = "/api/v1/rules/mqtt-to-kafka";

    private final MappingRuleService rules;

    public MappingRuleController(MappingRuleService rules) {
        this.rules = rules;
    }

    @ApiResponse(responseCode = "409", description = "a rule with the same filter and Kafka topic exists")
    @PostMapping(path = PATH, consumes = "application/json", produces = "application/json")
    @ResponseStatus(HttpStatus.CREATED)
    public MappingRuleView createMappingRule(@RequestBody(required = false) MappingRuleRequest request) {
        return rules.create(request);
    }

    @GetMapping(path = PATH, produces = "application/json")
    public List<MappingRuleView> listMappingRules() {
        return rules.list();
    }

    @ApiResponse(responseCode = "404", description = "no such rule")
    @GetMapping(path = PATH + "/{id}", produces = "application/json")
    @ResponseStatus(HttpStatus.OK) // with @ApiResponse errors declared, springdoc lists the 200 only so
    public MappingRuleView getMappingRule(@PathVariable long id) {
        return rules.get(id);
    }

    @ApiResponse(responseCode = "404", description = "no such rule")
    @DeleteMapping(PATH + "/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void deleteMappingRule(@PathVariable long id) {
        rules.delete(id);
    }
}
