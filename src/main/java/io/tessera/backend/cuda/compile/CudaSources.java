package io.tessera.backend.cuda.compile;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** The CUDA sources shipped as resources next to this class. */
public final class CudaSources {
    /** The include name of the block-wide primitives header. */
    public static final String CRYSTAL_HEADER = "tessera_crystal.cuh";
    /** The include name of the query-runtime header (checked arithmetic, reductions, atomics, group table). */
    public static final String QUERY_HEADER = "tessera_query.cuh";
    /** The include name of the sort header (radix sort, bitonic top-k). */
    public static final String SORT_HEADER = "tessera_sort.cuh";
    /** The include name of the radix sort's staged scatter kernels (row numbers copied to shared memory early). */
    public static final String STAGED_HEADER = "tessera_radix_staged.cuh";
    /** The include name of the sorted-search header (binary and p-ary search). */
    public static final String SEARCH_HEADER = "tessera_search.cuh";
    /** The include name of the window header (segmented scans, the window functions' values). */
    public static final String WINDOW_HEADER = "tessera_window.cuh";
    /** The file name of the module of the window kernels, compiled when a query first needs it. */
    public static final String WINDOW_MODULE = "tessera_window.cu";
    /** The file name of the module of the sort and search kernels, compiled when a query or benchmark first needs it. */
    public static final String SORT_MODULE = "tessera_sort.cu";
    /** The hand-written sample kernels (SSB Q1.1, bandwidth, select, probe). */
    public static final String SAMPLES = "tessera_samples.cu";
    /** The file name of the module of the kernels the executor launches around generated ones (fill, compaction). */
    public static final String UTILITY = "tessera_util.cu";

    private CudaSources() {
    }

    /** A resource of this package as text. */
    public static String read(String name) {
        try (InputStream in = CudaSources.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource " + name + " missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The text of tessera_crystal.cuh. */
    public static String crystalHeader() {
        return read(CRYSTAL_HEADER);
    }

    /** The headers map for {@link KernelCompiler}: every header of this package by its include name. */
    public static Map<String, String> headers() {
        return Map.of(CRYSTAL_HEADER, crystalHeader(), QUERY_HEADER, read(QUERY_HEADER), SORT_HEADER, read(SORT_HEADER),
                STAGED_HEADER, read(STAGED_HEADER), SEARCH_HEADER, read(SEARCH_HEADER), WINDOW_HEADER, read(WINDOW_HEADER));
    }

    /** The source of the {@link #UTILITY} module: the query header, whose extern "C" kernels it compiles. */
    public static String utilitySource() {
        return "#include \"" + QUERY_HEADER + "\"\n";
    }

    /** The source of the {@link #SORT_MODULE} module: the sort, staged-scatter and search headers, whose kernels it compiles. */
    public static String sortSource() {
        return "#include \"" + SORT_HEADER + "\"\n#include \"" + STAGED_HEADER + "\"\n#include \"" + SEARCH_HEADER
                + "\"\n";
    }

    /** The source of the {@link #WINDOW_MODULE} module: the window header, whose kernels it compiles. */
    public static String windowSource() {
        return "#include \"" + WINDOW_HEADER + "\"\n";
    }

    /** The text of tessera_samples.cu. */
    public static String samples() {
        return read(SAMPLES);
    }
}
