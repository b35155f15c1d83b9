package io.tessera.sql;

import io.tessera.storage.Table;

/**
 * Turns a file named in FROM into a table for one statement (implemented by {@code exec.FileTableLoader}, which
 * opens the file below the directories SQL may read and loads it into a temporary table).
 */
public interface FileTables {

    /** The table holding the file's rows (at least the columns the reference uses); errors name the file. */
    Table table(FileReference file);

    /** The table holding a series' values, in one column named as its function. */
    Table series(Series series);
}
