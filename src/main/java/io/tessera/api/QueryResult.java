package io.tessera.api;

import java.util.Collections;
import java.util.List;

/**
 * The rows of a query, in order, as Java values: Integer (INTEGER), Long (BIGINT), Double (DOUBLE),
 * BigDecimal (DECIMAL, with the column's scale), LocalDate (DATE), Boolean (BOOLEAN), String (VARCHAR), and
 * null for NULL. Also carries how long the query took to compile and to run.
 */
public final class QueryResult {

    private final List<ResultColumn> columns;
    private final List<Object[]> rows;
    private final long compileNanos;
    private final long executeNanos;
    private final Execution execution;

    /**
     * Where a query ran and what that cost beyond the total: {@code device} "cpu", "gpu" or "gpu+cpu" (some
     * pipelines on each); {@code notice}, when a GPU was asked for but (part of) the query ran on the JVM, the
     * one-line reason (else null); GPU kernel time, column upload time, and the bytes the GPU kernels must read;
     * {@code moves} intermediates moved from a device to the host, taking {@code moveNanos}; {@code steps}, one line
     * per pipeline (its device and time) and per move, in the order they happened.
     */
    public record Execution(String device, String notice, long kernelNanos, long uploadNanos, long bytesRead,
                            long modelBytes, int gpuPipelines, int pipelines, int moves, long moveNanos,
                            List<String> steps) {
        public static final Execution CPU = new Execution("cpu", null, 0, 0, 0, 0, 0, 0);

        public Execution {
            steps = List.copyOf(steps);
        }

        /** No moves, no steps noted. */
        public Execution(String device, String notice, long kernelNanos, long uploadNanos, long bytesRead,
                         long modelBytes, int gpuPipelines, int pipelines) {
            this(device, notice, kernelNanos, uploadNanos, bytesRead, modelBytes, gpuPipelines, pipelines, 0, 0, List.of());
        }
    }

    public QueryResult(List<ResultColumn> columns, List<Object[]> rows, long compileNanos, long executeNanos) {
        this(columns, rows, compileNanos, executeNanos, Execution.CPU);
    }

    public QueryResult(List<ResultColumn> columns, List<Object[]> rows, long compileNanos, long executeNanos,
                       Execution execution) {
        this.columns = List.copyOf(columns);
        this.rows = Collections.unmodifiableList(rows);
        this.compileNanos = compileNanos;
        this.executeNanos = executeNanos;
        this.execution = execution;
    }

    /** Where the query ran, and its GPU costs. */
    public Execution execution() {
        return execution;
    }

    public List<ResultColumn> columns() {
        return columns;
    }

    public int rowCount() {
        return rows.size();
    }

    public Object get(int row, int column) {
        return rows.get(row)[column];
    }

    public List<Object[]> rows() {
        return rows;
    }

    /** SQL text to runnable code (parse, validate, optimize, plan, generate, compile). */
    public long compileNanos() {
        return compileNanos;
    }

    /** Running the compiled pipelines and collecting the rows. */
    public long executeNanos() {
        return executeNanos;
    }
}
