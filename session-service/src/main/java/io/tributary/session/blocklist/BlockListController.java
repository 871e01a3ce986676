package io.tributary.session.blocklist;

import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.tributary.common.session.LimitsApi;
import io.tributary.common.session.SessionApi;
import io.tributary.session.internalauth.InternalCallers;
import io.tributary.session.internalauth.InternalRole;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

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

    @ApiResponse(responseCode = "409", description = "the block list has an entry for the same value")
    @PostMapping(path = "/api/v1/auth/blocklist", consumes = "application/json", produces = "application/json")
    @ResponseStatus(HttpStatus.CREATED)
    public BlockListService.Added addBlockEntry(@RequestBody(required = false) BlockRequest request) {
        return blockList.add(request);
    }

    @GetMapping(path = "/api/v1/auth/blocklist", produces = "application/json")
    public BlockListService.Page listBlockEntries(
            @RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "50") int size) {
        return blockList.list(page, size);
    }

    @ApiResponse(responseCode = "404", description = "no such entry")
    @GetMapping(path = "/api/v1/auth/blocklist/{id}", produces = "application/json")
    @ResponseStatus(HttpStatus.OK) // with @ApiResponse errors declared, springdoc lists the 200 only so
    public BlockEntry getBlockEntry(@PathVariable long id) {
        return blockList.get(id);
    }

    /** Removing an entry lets its clients connect again; nothing else happens to live connections. */
    @ApiResponse(responseCode = "404", description = "no such entry")
    @DeleteMapping("/api/v1/auth/blocklist/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void deleteBlockEntry(@PathVariable long id) {
        blockList.delete(id);
    }

    /** Internal API (transport nodes): the IP entries of the block list. */
    @InternalCallers(InternalRole.TRANSPORT)
    @GetMapping(path = SessionApi.BLOCKED_IPS, produces = "application/json")
    public LimitsApi.BlockedIps blockedIps(@RequestParam(required = false) String version) {
        return blockList.blockedIps(version);
    }
}
