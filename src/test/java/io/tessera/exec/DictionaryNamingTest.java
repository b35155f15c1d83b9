package io.tessera.exec;

import io.tessera.Tessera;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Tables whose names look like the engine's own names for intermediate results still find their dictionaries. */
class DictionaryNamingTest {

    @Test
    void tablesNamedLikeRelationsAndJoins(@TempDir Path dir) {
        TinyTables.write(dir, "r1", "id INTEGER NOT NULL, name VARCHAR", new Object[]{1, "b"}, new Object[]{2, "a"});
        TinyTables.write(dir, "j0", "id INTEGER NOT NULL, tag VARCHAR", new Object[]{1, "x"}, new Object[]{2, "y"});
        try (Tessera t = Tessera.open(dir)) {
            assertEquals(List.of(List.of("a", "y"), List.of("b", "x")),
                    TinyTables.rows(t.query("SELECT r1.name, j0.tag FROM r1 JOIN j0 ON r1.id = j0.id "
                            + "WHERE r1.name < 'c' ORDER BY r1.name")));
            assertEquals(List.of(List.of("a-y", 1L), List.of("b-x", 1L)),
                    TinyTables.rows(t.query("SELECT r1.name || '-' || j0.tag, COUNT(*) FROM r1 JOIN j0 ON r1.id = j0.id "
                            + "GROUP BY r1.name || '-' || j0.tag ORDER BY 1")));
        }
    }
}
