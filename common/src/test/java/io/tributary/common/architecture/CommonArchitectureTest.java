package io.tributary.common.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The contract's packages (topics, record formats, tenants, $SYS, the internal API) do not lean on each other in a
 * circle, at any depth (issue 35): each is read, and changed, on its own. Production classes only.
 */
@AnalyzeClasses(packages = "io.tributary.common", importOptions = ImportOption.DoNotIncludeTests.class)
class CommonArchitectureTest {

    @ArchTest
    static final ArchRule PACKAGES_ARE_FREE_OF_CYCLES_AT_ANY_DEPTH =
            slices().matching("io.tributary.common.(**)").should().beFreeOfCycles();
}
