package io.tessera;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Stream;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noFields;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The import rules of docs/ARCHITECTURE.md: the layers in dependency order (a layer uses only the layers below it),
 * the two backends apart, the JVM backend's operator families called by its driver and scheduling but never calling
 * back, exec reaching the GPU only through the backend root's device contract, rows moved between devices and
 * results read out in the host's one batch format, a GPU runtime per open database, no cycle between packages,
 * no ServiceLoader to hide one, and no source file over 800 lines.
 */
class ArchitectureTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.tessera");
    }

    @Test
    void layersUseOnlyTheLayersBelowThem() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("storage").definedBy("io.tessera.storage..")
                .layer("data").definedBy("io.tessera.data..")
                .layer("sql").definedBy("io.tessera.sql..")
                .layer("optimize").definedBy("io.tessera.optimize..")
                .layer("plan").definedBy("io.tessera.plan..")
                .layer("variant").definedBy("io.tessera.variant..")
                .layer("profile").definedBy("io.tessera.profile..")
                .layer("api").definedBy("io.tessera.api..")
                .layer("backend").definedBy("io.tessera.backend..")
                .layer("exec").definedBy("io.tessera.exec..")
                .layer("entry").definedBy("io.tessera")
                .layer("jdbc").definedBy("io.tessera.jdbc..")
                .layer("tune").definedBy("io.tessera.tune..")
                .layer("bench").definedBy("io.tessera.bench..")
                .layer("cli").definedBy("io.tessera.cli..")
                .whereLayer("cli").mayNotBeAccessedByAnyLayer()
                .whereLayer("jdbc").mayNotBeAccessedByAnyLayer()
                .whereLayer("bench").mayOnlyBeAccessedByLayers("cli")
                .whereLayer("tune").mayOnlyBeAccessedByLayers("cli", "bench")
                .whereLayer("entry").mayOnlyBeAccessedByLayers("jdbc", "tune", "bench", "cli")
                .whereLayer("exec").mayOnlyBeAccessedByLayers("entry", "jdbc", "tune", "bench", "cli")
                .whereLayer("backend").mayOnlyBeAccessedByLayers("exec", "tune", "bench", "cli")
                .whereLayer("api").mayOnlyBeAccessedByLayers("backend", "exec", "entry", "jdbc", "tune", "bench", "cli")
                .whereLayer("profile").mayOnlyBeAccessedByLayers("backend", "exec", "entry", "tune", "bench", "cli")
                .whereLayer("variant").mayOnlyBeAccessedByLayers("profile", "backend", "exec", "entry", "tune", "bench", "cli")
                .whereLayer("plan").mayOnlyBeAccessedByLayers("variant", "profile", "backend", "exec", "entry", "tune",
                        "bench", "cli")
                .whereLayer("optimize").mayOnlyBeAccessedByLayers("plan", "variant", "profile", "backend", "exec",
                        "entry", "tune", "bench", "cli")
                .whereLayer("sql").mayOnlyBeAccessedByLayers("optimize", "plan", "variant", "profile", "backend", "exec", "entry",
                        "jdbc", "tune", "bench", "cli")
                .whereLayer("data").mayOnlyBeAccessedByLayers("exec", "tune", "bench", "cli")
                .check(classes);
    }

    @Test
    void theBackendsDoNotUseEachOther() {
        noClasses().that().resideInAPackage("io.tessera.backend.jvm..")
                .should().dependOnClassesThat().resideInAPackage("io.tessera.backend.cuda..").check(classes);
        noClasses().that().resideInAPackage("io.tessera.backend.cuda..")
                .should().dependOnClassesThat().resideInAPackage("io.tessera.backend.jvm..").check(classes);
    }

    /**
     * The host's work (rows on the host, results, VALUES, unions and LIMITs completed, the pipeline loop) uses no
     * device backend: a query that runs wholly on a GPU reaches the JVM backend only through the {@code Host}
     * contract, and the JVM backend depends on the host, never the other way round.
     */
    @Test
    void theHostUsesNoDeviceBackend() {
        noClasses().that().resideInAPackage("io.tessera.backend.host..")
                .should().dependOnClassesThat().resideInAnyPackage("io.tessera.backend.jvm..", "io.tessera.backend.cuda..")
                .check(classes);
    }

    private static final String CUDA = "io.tessera.backend.cuda";

    /**
     * The CUDA backend's foundation in layers: its root (CudaException) uses none of its packages, the driver
     * bindings only the root, compilation only the driver, the bandwidth measurement and the device operators only
     * those two; the self-checks are used by nothing else.
     */
    @Test
    void cudaFoundationPackagesUseOnlyThoseBelowThem() {
        cudaPackageUsesOnly("");
        cudaPackageUsesOnly("driver");
        cudaPackageUsesOnly("compile", "driver");
        cudaPackageUsesOnly("measure", "driver", "compile");
        cudaPackageUsesOnly("ops", "driver", "compile");
        noClasses().that().resideOutsideOfPackage(CUDA + ".check..")
                .should().dependOnClassesThat().resideInAPackage(CUDA + ".check..")
                .because("the GPU machine's self-checks are entry points of their own").check(classes);
    }

    /** Classes of {@code backend.cuda.pkg} (the root for "") use of the CUDA backend only the root, pkg and {@code allowed}. */
    private static void cudaPackageUsesOnly(String pkg, String... allowed) {
        String own = pkg.isEmpty() ? CUDA : CUDA + "." + pkg + "..";
        String[] ok = Stream.concat(Stream.of(CUDA, own),
                Stream.of(allowed).filter(a -> !a.isEmpty()).map(a -> CUDA + "." + a + "..")).toArray(String[]::new);
        noClasses().that().resideInAPackage(own)
                .should().dependOnClassesThat(JavaClass.Predicates.resideInAPackage(CUDA + "..")
                        .and(DescribedPredicate.not(JavaClass.Predicates.resideInAnyPackage(ok))))
                .check(classes);
    }

    /** The JVM backend's operator families: an emitter, run-time tables and the end of a sink each. */
    private static final String[] JVM_FAMILIES = {"io.tessera.backend.jvm.filter..", "io.tessera.backend.jvm.join..",
            "io.tessera.backend.jvm.aggregate..", "io.tessera.backend.jvm.sort..", "io.tessera.backend.jvm.window..",
            "io.tessera.backend.jvm.relation.."};

    @Test
    void jvmOperatorFamiliesNeverCallTheDriverTheSchedulingOrTheEntryPoints() {
        noClasses().that().resideInAnyPackage(JVM_FAMILIES)
                .should().dependOnClassesThat().resideInAnyPackage("io.tessera.backend.jvm", "io.tessera.backend.jvm.run..")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("io.tessera.backend.jvm.gen.PipelineEmitter")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("io.tessera.backend.jvm.gen.PipelineClass")
                .check(classes);
    }

    @Test
    void jvmRowsUseNoOperatorFamily() {
        noClasses().that().resideInAPackage("io.tessera.backend.jvm.relation..")
                .should().dependOnClassesThat().resideInAnyPackage("io.tessera.backend.jvm.filter..",
                        "io.tessera.backend.jvm.join..", "io.tessera.backend.jvm.aggregate..",
                        "io.tessera.backend.jvm.sort..", "io.tessera.backend.jvm.window..")
                .check(classes);
    }

    @Test
    void theLibraryOfGeneratedCodeStandsAlone() {
        noClasses().that().resideInAPackage("io.tessera.backend.jvm.lib..")
                .should().dependOnClassesThat(JavaClass.Predicates.resideInAPackage("io.tessera.backend.jvm..")
                        .and(DescribedPredicate.not(JavaClass.Predicates.resideInAPackage("io.tessera.backend.jvm.lib.."))))
                .check(classes);
    }

    @Test
    void jvmGenerationDoesNotUseTheSchedulingOrTheEntryPoints() {
        noClasses().that().resideInAPackage("io.tessera.backend.jvm.gen..")
                .should().dependOnClassesThat().resideInAnyPackage("io.tessera.backend.jvm", "io.tessera.backend.jvm.run..")
                .check(classes);
    }

    @Test
    void execNamesNoGpuBackend() {
        noClasses().that().resideInAPackage("io.tessera.exec..")
                .should().dependOnClassesThat().resideInAPackage("io.tessera.backend.cuda..")
                .because("exec reaches a GPU through the backend root's device contract (Accelerator, Devices,"
                        + " DeviceException)")
                .check(classes);
    }

    /** exec uses of the backends only the root (the device contract, intermediates, run state) and the host package. */
    @Test
    void execUsesOnlyTheBackendRootAndTheHost() {
        noClasses().that().resideInAPackage("io.tessera.exec..")
                .should().dependOnClassesThat(JavaClass.Predicates.resideInAPackage("io.tessera.backend..")
                        .and(DescribedPredicate.not(JavaClass.Predicates.resideInAnyPackage("io.tessera.backend",
                                "io.tessera.backend.host"))))
                .check(classes);
    }

    /**
     * Rows move between devices in one batch format: what the CUDA backend hands the host or reads from it is a
     * {@code backend.host.RowBuffer} (in a {@code RelationPart}), and of the host's package it uses nothing else.
     */
    @Test
    void devicesMoveRowsInTheHostsOneBatchFormat() {
        noClasses().that().resideInAPackage("io.tessera.backend.cuda..")
                .should().dependOnClassesThat(JavaClass.Predicates.resideInAPackage("io.tessera.backend.host")
                        .and(DescribedPredicate.not(JavaClass.Predicates.belongToAnyOf(
                                io.tessera.backend.host.RowBuffer.class, io.tessera.backend.host.RelationPart.class))))
                .check(classes);
    }

    /** A query's result leaves the backends only as the host's ResultRelation, which DML, JDBC and Spark read. */
    @Test
    void resultsLeaveTheBackendsAsTheResultRelation() {
        noClasses().that().resideOutsideOfPackages("io.tessera.backend..")
                .should().dependOnClassesThat().belongToAnyOf(io.tessera.backend.host.MatRelation.class,
                        io.tessera.backend.host.RowBuffer.class, io.tessera.backend.host.RelationPart.class)
                .check(classes);
    }

    /**
     * A GPU runtime belongs to the open database whose device registry opened it ({@code backend.Devices}, through
     * {@code CudaBackend.open}) and is closed with it: none is held for the whole process, and only the GPU
     * micro-benchmarks open one of their own.
     */
    @Test
    void gpuRuntimesBelongToADatabase() {
        noFields().that().areStatic().should().haveRawType(io.tessera.backend.cuda.runtime.GpuRuntime.class)
                .check(classes);
        noClasses().that().resideOutsideOfPackages("io.tessera.backend.cuda.exec", "io.tessera.backend.cuda.runtime",
                        "io.tessera.bench")
                .should().callMethod(io.tessera.backend.cuda.runtime.GpuRuntime.class, "open")
                .check(classes);
        noClasses().that().resideInAPackage("io.tessera.bench")
                .and().doNotHaveSimpleName("GpuSortBench").and().doNotHaveSimpleName("GpuSearchBench")
                .should().callMethod(io.tessera.backend.cuda.runtime.GpuRuntime.class, "open")
                .check(classes);
    }

    /**
     * Sorting rows is host work, whichever device made them: {@code backend.host.sort} holds it, and the JVM's sort
     * family keeps only its emitter.
     */
    @Test
    void rowsAreSortedOnTheHost() {
        classes().that().resideInAPackage("io.tessera.backend.jvm.sort").and().areTopLevelClasses()
                .and().doNotHaveSimpleName("package-info")
                .should().haveSimpleNameEndingWith("Emitter")
                .check(classes);
    }

    @Test
    void packagesFormNoCycle() {
        slices().matching("io.tessera.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void noServiceLoaderHidesADependency() {
        noClasses().should().dependOnClassesThat().belongToAnyOf(ServiceLoader.class).check(classes);
    }

    @Test
    void noSourceFileIsOver800Lines() throws IOException {
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            List<String> long_ = files.filter(f -> f.toString().endsWith(".java")).filter(f -> lines(f) > 800)
                    .map(f -> f + " (" + lines(f) + " lines)").toList();
            assertEquals(List.of(), long_);
        }
    }

    private static long lines(Path f) {
        try (Stream<String> l = Files.lines(f)) {
            return l.count();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
