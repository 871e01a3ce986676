package io.tributary.session.auth;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Admin REST API of MQTT credentials, ACLs and failed authentications, {@code /api/v1/auth}. */
@RestController
@RequestMapping(path = "/api/v1/auth", produces = "application/json")
public class AuthAdminController {

    private final CredentialAdminService admin;

    public AuthAdminController(CredentialAdminService admin) {
        this.admin = admin;
    }

    @PostMapping(path = "/credentials", consumes = "application/json")
    public ResponseEntity<CredentialView> create(@RequestBody(required = false) CredentialRequest request) {
        return ResponseEntity.status(HttpStatus.CREATED).body(admin.create(request));
    }

    @GetMapping("/credentials")
    public AuthPages.CredentialPage list(@RequestParam(defaultValue = "0") int page,
            @RequestParam(defaultValue = "50") int size) {
        return admin.list(page, size);
    }

    @GetMapping("/credentials/{id}")
    public CredentialView get(@PathVariable long id) {
        return admin.get(id);
    }

    @PutMapping(path = "/credentials/{id}", consumes = "application/json")
    public CredentialView update(@PathVariable long id, @RequestBody(required = false) CredentialRequest request) {
        return admin.update(id, request);
    }

    @DeleteMapping("/credentials/{id}")
    public ResponseEntity<Void> delete(@PathVariable long id) {
        admin.delete(id);
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/failures")
    public AuthPages.FailurePage failures(@RequestParam(defaultValue = "0") int page,
            @RequestParam(defaultValue = "50") int size) {
        return admin.failures(page, size);
    }
}
