package io.tessera.data.io;

/**
 * What an import tells about its progress: the bytes it will read, then rows and bytes as they take their place in
 * the table (on the importing thread, in file order), then the commit. {@link #NONE} tells nobody;
 * {@link ProgressLine} draws it on a terminal.
 */
public interface ImportProgress {

    /** Tells nobody. */
    ImportProgress NONE = new ImportProgress() {
        @Override
        public void start(String table, long totalBytes) {
        }

        @Override
        public void advanced(long rows, long bytes) {
        }

        @Override
        public void committing() {
        }

        @Override
        public void finish() {
        }
    };

    /** The import into {@code table} starts; its files hold {@code totalBytes} (0: unknown). */
    void start(String table, long totalBytes);

    /** {@code rows} more rows, read from {@code bytes} more bytes of the files, took their place in the table. */
    void advanced(long rows, long bytes);

    /** Every row is read; the table is being committed. */
    void committing();

    /** The import ended (committed or failed). */
    void finish();
}
