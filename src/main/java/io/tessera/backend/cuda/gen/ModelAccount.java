package io.tessera.backend.cuda.gen;

/**
 * Adds up a kernel's {@link ModelBytes} while the emitter walks its pipeline: the estimated fraction of rows still
 * selected narrows at every filter and probe, and each column loaded, table probed and row sunk is charged at the
 * fraction in force where the kernel does it.
 */
final class ModelAccount {

    /** The thesis's cache line: what a random access to device memory reads (128 bytes on NVIDIA GPUs). */
    static final int LINE = 128;

    private final long rows;
    private double selected = 1;
    private double columns;
    private double tables;
    private double results;

    ModelAccount(long rows) {
        this.rows = rows;
    }

    /** The estimated fraction of the scanned rows still selected. */
    double selected() {
        return selected;
    }

    /** A filter or probe that keeps {@code fraction} of the rows it sees. */
    void narrow(double fraction) {
        selected *= Math.max(0, Math.min(1, fraction));
    }

    /** A column of {@code width} bytes per row, loaded for the rows selected now. */
    void column(int width) {
        columns += rows * Math.min(width, selected * LINE);
    }

    /** A join table of {@code bytes} that the probes read. */
    void table(double bytes) {
        tables += bytes;
    }

    /** Every selected row updates a group in a table in device memory: a line read, a line written. */
    void groupUpdates() {
        results += rows * selected * 2.0 * LINE;
    }

    /** Every selected row writes {@code width} bytes. */
    void written(int width) {
        results += rows * selected * width;
    }

    ModelBytes bytes() {
        return new ModelBytes(Math.round(columns), Math.round(tables), Math.round(results));
    }
}
