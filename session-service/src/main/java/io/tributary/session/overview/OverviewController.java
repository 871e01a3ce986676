package io.tributary.session.overview;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/v1/overview}: the admin console's overview page polls it every few seconds. */
@RestController
public class OverviewController {

    private final OverviewService overview;

    public OverviewController(OverviewService overview) {
        this.overview = overview;
    }

    @GetMapping(path = "/api/v1/overview", produces = "application/json")
    public ClusterOverview clusterOverview() {
        return overview.overview();
    }
}
