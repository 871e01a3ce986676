package io.tributary.routing.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.lettuce.core.RedisClient;
import io.lettuce.core.resource.ClientResources;

/**
 * The feature packages of routing-service do not depend on each other in a circle (issue 19), as in transport-service.
 * Production classes only.
 */
@AnalyzeClasses(packages = "io.tributary.routing", importOptions = ImportOption.DoNotIncludeTests.class)
class RoutingArchitectureTest {

    @ArchTest
    static final ArchRule FEATURE_PACKAGES_ARE_FREE_OF_CYCLES =
            slices().matching("io.tributary.routing.(*)..").should().beFreeOfCycles();

    /**
     * The same at every depth: each package is a slice of its own, so a feature's sub-package and the feature
     * itself (limits and limits.tenant, auth and auth.jwt) cannot lean on each other either (issue 35).
     */
    @ArchTest
    static final ArchRule PACKAGES_ARE_FREE_OF_CYCLES_AT_ANY_DEPTH =
            slices().matching("io.tributary.routing.(**)").should().beFreeOfCycles();

    /**
     * Every Redis connection comes from redis-support's RedisClientFactory, so the services agree on timeouts, on
     * what happens while Redis is down and on how a connection is (re)made (issue 19).
     */
    @ArchTest
    static final ArchRule REDIS_CLIENTS_COME_FROM_THE_FACTORY =
            noClasses().should().dependOnClassesThat().belongToAnyOf(RedisClient.class, ClientResources.class);
}
