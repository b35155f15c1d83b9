package io.tessera.spark;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

/** docs/ARCHITECTURE.md's rule for the connector: it reaches Tessera only through its public entry points. */
class ConnectorArchitectureTest {

    @Test
    void theConnectorUsesOnlyTesserasEntryPointApiAndStorage() {
        JavaClasses connector = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.tessera.spark");
        classes().that().resideInAPackage("io.tessera.spark")
                .should().onlyDependOnClassesThat(
                        com.tngtech.archunit.base.DescribedPredicate.describe("Tessera's entry point, api, storage,"
                                + " exec.Device and sql.Parameters, Spark, Scala or the JDK", c -> {
                                    String n = c.getName();
                                    String p = c.getPackageName();
                                    return p.equals("io.tessera.spark") || n.equals("io.tessera.Tessera")
                                            || p.equals("io.tessera.api") || p.equals("io.tessera.storage")
                                            || n.equals("io.tessera.exec.Device") || n.startsWith("io.tessera.sql.Parameters")
                                            || p.startsWith("org.apache.spark")
                                            || p.startsWith("scala") || p.startsWith("java") || c.isPrimitive()
                                            || c.isArray();
                                }))
                .check(connector);
    }
}
