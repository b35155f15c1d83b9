package io.tessera.cli;

import io.tessera.Tessera;
import io.tessera.backend.cuda.compile.CudaSources;
import io.tessera.backend.cuda.gen.CudaKernelSource;
import io.tessera.backend.cuda.gen.GpuPlacement;
import io.tessera.backend.jvm.JvmExecutor;
import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.backend.cuda.exec.GpuPlan;
import io.tessera.exec.QueryEngine;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.variant.CudaVariantSpace;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code tessera emit --device gpu|cpu --db DIR -c SQL --out DIR}: writes the generated code of every pipeline of a
 * query, on any machine. For the GPU, one complete .cu file per pipeline that runs there, with the headers it
 * includes written beside it, so that {@code nvcc -arch=sm_90 -cubin FILE.cu} compiles it; for the CPU, one Java
 * class per pipeline.
 */
@Command(name = "emit", mixinStandardHelpOptions = true,
        description = "Write the generated code of a query's pipelines (CUDA for --device gpu, Java for cpu).")
public final class EmitCommand implements Callable<Integer> {

    @Mixin
    DbOption db;

    @Option(names = {"-c", "--command"}, required = true, paramLabel = "SQL", description = "the query")
    String sql;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "directory to write the sources to")
    Path out;

    @Option(names = "--device", defaultValue = "gpu", paramLabel = "DEVICE",
            description = "gpu (CUDA C) or cpu (Java); default: ${DEFAULT-VALUE}")
    String device;

    @Option(names = "--cuda-genome", paramLabel = "DIM=VALUE", split = ",",
            description = "with --device gpu: these CUDA dimension values in every pipeline that allows them, e.g. bm=shared")
    java.util.Map<String, String> cudaGenome = new java.util.LinkedHashMap<>();

    @Override
    public Integer call() throws IOException {
        PrintStream o = System.out;
        Files.createDirectories(out);
        try (Tessera t = Tessera.open(db.db)) {
            QueryEngine engine = t.engine();
            switch (device.toLowerCase(java.util.Locale.ROOT)) {
                case "gpu" -> {
                    QueryPlan plan = engine.plan(sql, io.tessera.exec.Device.GPU);
                    GpuPlacement placed = GpuPlacement.place(plan, CudaVariantSpace.INSTANCE.completeAll(plan,
                                    CudaVariantSpace.INSTANCE.defaultsWith(plan, cudaGenome)),
                            key -> GpuPlan.dictionary(t.database(), key));
                    Files.writeString(out.resolve(CudaSources.CRYSTAL_HEADER), CudaSources.crystalHeader());
                    Files.writeString(out.resolve(CudaSources.QUERY_HEADER), CudaSources.read(CudaSources.QUERY_HEADER));
                    for (Pipeline p : plan.pipelines()) {
                        CudaKernelSource k = placed.kernels().get(p.id());
                        if (k == null) {
                            o.println("pipeline " + p.id() + ": on the JVM: " + placed.jvmReasons().get(p.id()));
                        } else {
                            Files.writeString(out.resolve(k.fileName()), k.source());
                            o.println("pipeline " + p.id() + ": " + out.resolve(k.fileName()) + "  " + k.genome());
                        }
                    }
                }
                case "cpu" -> {
                    for (EmittedPipeline e : JvmExecutor.compiled(engine.prepare(sql).jvm()).pipelines()) {
                        Path f = out.resolve(e.className() + ".java");
                        Files.writeString(f, e.source());
                        o.println("pipeline " + e.pipeline().id() + ": " + f + "  " + e.genome());
                    }
                }
                default -> throw new IllegalArgumentException("unknown device '" + device + "' (gpu, cpu)");
            }
        }
        return 0;
    }
}
