package io.tributary.session.metering;

import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** A tenant's metered usage on the admin REST API (bearer token, like all of {@code /api/v1}). */
@RestController
@RequestMapping(path = "/api/v1/tenants", produces = "application/json")
public class UsageController {

    private final UsageService usage;

    public UsageController(UsageService usage) {
        this.usage = usage;
    }

    @ApiResponse(
            responseCode = "400",
            description = "from/to not whole ISO-8601 hours, from not before to, or the"
                    + " range longer than TRIBUTARY_METERING_MAX_QUERY_RANGE")
    @ApiResponse(responseCode = "404", description = "no such tenant")
    @GetMapping("/{id}/usage")
    @ResponseStatus(HttpStatus.OK)
    public TenantUsage getTenantUsage(
            @PathVariable String id,
            @Parameter(description = "first hour, inclusive, e.g. 2026-11-26T00:00:00Z; default: to minus 24 hours")
                    @RequestParam(required = false)
                    String from,
            @Parameter(description = "end hour, exclusive; default: the end of the current hour")
                    @RequestParam(required = false)
                    String to) {
        return usage.usage(id, from, to);
    }
}
