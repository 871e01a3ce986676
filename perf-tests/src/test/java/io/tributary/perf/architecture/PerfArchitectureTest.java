package io.tributary.perf.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The load generator's packages (scenario, client, load, measure, report, compare, ...) do not lean on each other in
 * a circle, at any depth (issue 35). Production classes only.
 */
@AnalyzeClasses(packages = "io.tributary.perf", importOptions = ImportOption.DoNotIncludeTests.class)
class PerfArchitectureTest {

    @ArchTest
    static final ArchRule PACKAGES_ARE_FREE_OF_CYCLES_AT_ANY_DEPTH =
            slices().matching("io.tributary.perf.(**)").should().beFreeOfCycles();
}
