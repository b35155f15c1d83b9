package io.tessera.sql;

import io.tessera.Tessera;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * VERSION() names the project's version as pom.xml gives it; current_database() and current_catalog the database's
 * directory, as DuckDB names a database by its file.
 */
class SessionFunctionsTest {

    @Test
    void versionIsThePomsVersion() throws Exception {
        String pom = Files.readString(Path.of("pom.xml"));
        // the project's own version: the first <version> after its artifactId, before any dependency
        Matcher m = Pattern.compile("<artifactId>tessera</artifactId>\\s*<version>([^<]+)</version>").matcher(pom);
        assertTrue(m.find(), "pom.xml names the project's version");
        assertEquals("v" + m.group(1), SessionFunctions.VERSION);
    }

    @Test
    void theDatabaseIsNamedByItsDirectory(@TempDir Path dir) {
        Path sales = dir.resolve("sales");
        try (Tessera t = Tessera.openOrCreate(sales)) {
            Object[] row = t.query("select current_database(), current_catalog, current_catalog(), current_schema()")
                    .rows().get(0);
            assertArrayEquals(new Object[] {"sales", "sales", "sales", "main"}, row);
        }
        assertEquals("sales", SessionFunctions.databaseName(sales.resolve(".")));
        assertEquals("memory", SessionFunctions.databaseName(null));
    }
}
