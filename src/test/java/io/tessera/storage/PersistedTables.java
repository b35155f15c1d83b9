package io.tessera.storage;

import io.tessera.Tessera;
import io.tessera.api.QueryResult;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the tests of a table definition kept across a close and reopen share (keys, CHECKs, FOREIGN KEYs, generated
 * columns, ALTER TABLE): a result's rows as one line of text, a statement that must fail with a message, and a
 * manifest that must not hold a key (a database written before the definition existed opens as it was).
 */
final class PersistedTables {

    private PersistedTables() {
    }

    /** The rows as {@code [[1, a], [2, b]]}. */
    static String rows(QueryResult r) {
        return r.rows().stream().map(Arrays::toString).toList().toString();
    }

    /** Runs {@code sql}, which must fail with a message holding {@code expected}. */
    static void assertFails(Tessera t, String sql, String expected) {
        Exception e = assertThrows(Exception.class, () -> t.query(sql));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    /** The database's manifest has no {@code "key"} anywhere. */
    static void assertManifestLacks(Path dir, String key) throws IOException {
        String manifest = Files.readString(dir.resolve(Manifest.FILE_NAME));
        assertFalse(manifest.contains("\"" + key + "\""), manifest);
    }
}
