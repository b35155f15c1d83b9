package io.tessera.storage;

import io.tessera.Tessera;
import io.tessera.api.QueryResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Macros in manifest.json: a macro, scalar or table, with its defaults, is kept across a reopen and called as
 * before; a temporary one is not; a dropped one stays dropped; a manifest written before macros were kept opens
 * without any.
 */
class MacroManifestTest {

    @Test
    void macrosAreKeptAcrossAReopen(@TempDir Path dir) throws Exception {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            t.query("create table t as select * from (values (1, 10), (2, 20), (3, 30)) v(a, b)");
            t.query("create macro scaled(x, factor := 10) as x * factor");
            t.query("create function first_rows(n) as table select a, b from t where a <= n");
            t.query("create macro gone(x) as x");
            t.query("create temp macro session_only(x) as x");
            t.query("drop macro gone");
            assertEquals("[[20, 2]]", rows(t.query("select scaled(2), session_only(2)")));
        }
        String manifest = Files.readString(dir.resolve(Manifest.FILE_NAME));
        assertTrue(manifest.contains("\"macros\""), manifest);
        assertFalse(manifest.contains("session_only"), manifest);

        try (Tessera t = Tessera.open(dir)) {
            assertEquals("[[20, 6]]", rows(t.query("select scaled(2), scaled(2, factor := 3)")));
            assertEquals("[[1, 10], [2, 20]]", rows(t.query("select * from first_rows(2) order by a")));
            RuntimeException gone = assertThrows(RuntimeException.class, () -> t.query("select gone(1)"));
            assertTrue(gone.getMessage().contains("function GONE"), gone.getMessage());
            RuntimeException temp = assertThrows(RuntimeException.class, () -> t.query("select session_only(1)"));
            assertTrue(temp.getMessage().contains("function SESSION_ONLY"), temp.getMessage());
            t.query("drop macro table first_rows");
        }
        try (Database db = Database.open(dir)) {
            assertEquals(List.of("scaled"), db.macros().stream().map(Macro::name).toList());
            Macro scaled = db.macros().getFirst();
            assertEquals(List.of(new Macro.Parameter("x", null), new Macro.Parameter("factor", "10")),
                    scaled.parameters());
            assertEquals("x * factor", scaled.body());
            assertFalse(scaled.table());
        }
    }

    @Test
    void aManifestWithoutMacrosOpens(@TempDir Path dir) throws Exception {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            t.query("create table t as select 1 as a");
        }
        String manifest = Files.readString(dir.resolve(Manifest.FILE_NAME));
        assertFalse(manifest.contains("\"macros\""), manifest); // as a Tessera before macros wrote it
        try (Tessera t = Tessera.open(dir)) {
            assertEquals("[[1]]", rows(t.query("select a from t")));
            t.query("create macro inc(x) as x + 1");
            assertEquals("[[2]]", rows(t.query("select inc(a) from t")));
        }
    }

    private static String rows(QueryResult r) {
        return r.rows().stream().map(Arrays::toString).toList().toString();
    }
}
