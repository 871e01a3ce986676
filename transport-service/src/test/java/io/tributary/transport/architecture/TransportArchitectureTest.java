package io.tributary.transport.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.properties.HasName;
import com.tngtech.archunit.core.domain.properties.HasOwner;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.lettuce.core.RedisClient;
import io.lettuce.core.resource.ClientResources;
import io.netty.channel.Channel;
import io.tributary.transport.connection.ClientAddress;

/**
 * Package-by-feature only holds while features do not lean on each other in a circle: a cycle between two feature
 * packages means neither can be read, changed or moved without the other (issue 19). Production classes only.
 */
@AnalyzeClasses(packages = "io.tributary.transport", importOptions = ImportOption.DoNotIncludeTests.class)
class TransportArchitectureTest {

    @ArchTest
    static final ArchRule FEATURE_PACKAGES_ARE_FREE_OF_CYCLES =
            slices().matching("io.tributary.transport.(*)..").should().beFreeOfCycles();

    /**
     * The same at every depth: each package is a slice of its own, so a feature's sub-package and the feature
     * itself (limits and limits.tenant, auth and auth.jwt) cannot lean on each other either (issue 35).
     */
    @ArchTest
    static final ArchRule PACKAGES_ARE_FREE_OF_CYCLES_AT_ANY_DEPTH =
            slices().matching("io.tributary.transport.(**)").should().beFreeOfCycles();

    /**
     * The root package holds the application and its composition root (TransportConfiguration), which depend on
     * every feature; the slices above do not include it, so a feature depending on it would hide a cycle.
     */
    @ArchTest
    static final ArchRule NO_FEATURE_DEPENDS_ON_THE_COMPOSITION_ROOT = noClasses()
            .that()
            .resideInAPackage("io.tributary.transport.*..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.tributary.transport");

    /**
     * Every Redis connection comes from redis-support's RedisClientFactory, so the services agree on timeouts, on
     * what happens while Redis is down and on how a connection is (re)made (issue 19).
     */
    /**
     * Behind a PROXY protocol load balancer the socket's peer is the balancer: the client's address for limits, the
     * block list, logs and session-service comes from {@link ClientAddress} alone (issue 34).
     */
    @ArchTest
    static final ArchRule THE_CLIENT_ADDRESS_COMES_FROM_CLIENT_ADDRESS = noClasses()
            .that()
            .doNotBelongToAnyOf(ClientAddress.class)
            .should()
            .callMethodWhere(JavaCall.Predicates.target(HasName.Predicates.name("remoteAddress"))
                    .and(JavaCall.Predicates.target(
                            HasOwner.Predicates.With.owner(JavaClass.Predicates.assignableTo(Channel.class)))))
            .because("the socket's remote address is the load balancer's behind the PROXY protocol");

    @ArchTest
    static final ArchRule REDIS_CLIENTS_COME_FROM_THE_FACTORY =
            noClasses().should().dependOnClassesThat().belongToAnyOf(RedisClient.class, ClientResources.class);
}
