package io.tributary.session.admin;

import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** Admin REST API, {@code /api/v1}. Errors are {@code {"error": "..."}} with a 4xx status. */
@RestController
@RequestMapping(path = "/api/v1", produces = "application/json")
public class SessionAdminController {

    private final SessionAdminService admin;

    public SessionAdminController(SessionAdminService admin) {
        this.admin = admin;
    }

    /** Sessions ordered by client id; {@code connected} optional filter; {@code size} at most 1000. */
    @GetMapping("/sessions")
    public SessionPage listSessions(
            @RequestParam(defaultValue = "0") int page,
            @RequestParam(defaultValue = "50") int size,
            @RequestParam(required = false) Boolean connected) {
        return admin.list(page, size, connected);
    }

    @ApiResponse(responseCode = "404", description = "no session for the client")
    @GetMapping("/sessions/{clientId}")
    @ResponseStatus(HttpStatus.OK) // with @ApiResponse errors declared, springdoc lists the 200 only so
    public SessionDetails getSession(@PathVariable String clientId) {
        return admin.get(clientId);
    }

    @ApiResponse(responseCode = "404", description = "no session for the client")
    @GetMapping("/sessions/{clientId}/subscriptions")
    @ResponseStatus(HttpStatus.OK) // with @ApiResponse errors declared, springdoc lists the 200 only so
    public List<SubscriptionView> sessionSubscriptions(@PathVariable String clientId) {
        return admin.subscriptions(clientId);
    }

    @ApiResponse(responseCode = "404", description = "no session for the client")
    @ApiResponse(responseCode = "409", description = "the session is not connected")
    @PostMapping("/sessions/{clientId}/disconnect")
    @ResponseStatus(HttpStatus.ACCEPTED)
    public DisconnectAccepted disconnectSession(@PathVariable String clientId) {
        return admin.disconnect(clientId);
    }

    @ApiResponse(responseCode = "404", description = "no session for the client")
    @ApiResponse(responseCode = "409", description = "the session is connected: disconnect it first")
    @DeleteMapping("/sessions/{clientId}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void deleteSession(@PathVariable String clientId) {
        admin.delete(clientId);
    }
}
