package io.tributary.session.admin;

import java.util.List;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
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
    public SessionPage list(@RequestParam(defaultValue = "0") int page,
            @RequestParam(defaultValue = "50") int size,
            @RequestParam(required = false) Boolean connected) {
        return admin.list(page, size, connected);
    }

    @GetMapping("/sessions/{clientId}")
    public SessionDetails get(@PathVariable String clientId) {
        return admin.get(clientId);
    }

    @GetMapping("/sessions/{clientId}/subscriptions")
    public List<SubscriptionView> subscriptions(@PathVariable String clientId) {
        return admin.subscriptions(clientId);
    }

    @PostMapping("/sessions/{clientId}/disconnect")
    public ResponseEntity<DisconnectAccepted> disconnect(@PathVariable String clientId) {
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(admin.disconnect(clientId));
    }

    @DeleteMapping("/sessions/{clientId}")
    public ResponseEntity<Void> delete(@PathVariable String clientId) {
        admin.delete(clientId);
        return ResponseEntity.noContent().build();
    }
}
