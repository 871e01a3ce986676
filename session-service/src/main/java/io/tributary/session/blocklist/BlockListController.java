package io.tributary.session.blocklist;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.tributary.common.session.SessionApi;

/**
 * The block list: {@code /api/v1/auth/blocklist} for operators (bearer token, like all of {@code /api/v1}), and the
 * IP entries for transport nodes on the internal API.
 */
@RestController
public class BlockListController {

    private final BlockListService blockList;

    public BlockListController(BlockListService blockList) {
        this.blockList = blockList;
    }

    @PostMapping(path = "/api/v1/auth/blocklist", consumes = "application/json", produces = "application/json")
    public ResponseEntity<BlockListService.Added> add(@RequestBody(required = false) BlockRequest request) {
        return ResponseEntity.status(HttpStatus.CREATED).body(blockList.add(request));
    }

    @GetMapping(path = "/api/v1/auth/blocklist", produces = "application/json")
    public BlockListService.Page list(@RequestParam(defaultValue = "0") int page,
            @RequestParam(defaultValue = "50") int size) {
        return blockList.list(page, size);
    }

    @GetMapping(path = "/api/v1/auth/blocklist/{id}", produces = "application/json")
    public BlockEntry get(@PathVariable long id) {
        return blockList.get(id);
    }

    /** Removing an entry lets its clients connect again; nothing else happens to live connections. */
    @DeleteMapping("/api/v1/auth/blocklist/{id}")
    public ResponseEntity<Void> delete(@PathVariable long id) {
        blockList.delete(id);
        return ResponseEntity.noContent().build();
    }

    @GetMapping(path = SessionApi.BLOCKED_IPS, produces = "application/json")
    public SessionApi.BlockedIps blockedIps(@RequestParam(required = false) String version) {
        return blockList.blockedIps(version);
    }
}
