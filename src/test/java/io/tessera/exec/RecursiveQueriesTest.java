package io.tessera.exec;

import io.tessera.Tessera;
import io.tessera.api.QueryCancel;
import io.tessera.api.QueryCancelledException;
import io.tessera.sql.SqlError;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a recursive query does beyond its rows (those are in recursive_cte.test): cancellation, its temporary tables. */
class RecursiveQueriesTest {

    private static final String ENDLESS = "WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) "
            + "SELECT count(*) FROM t";

    @TempDir
    static Path dir;

    private static Tessera db;

    @BeforeAll
    static void tables() {
        TinyTables.write(dir, "t0", "a INTEGER NOT NULL", new Object[] {1});
        db = Tessera.open(dir);
    }

    @AfterAll
    static void close() {
        db.close();
    }

    @Test
    void anEndlessRecursionStopsWhenCancelled() throws Exception {
        QueryCancel cancel = new QueryCancel();
        CompletableFuture<Object> run = CompletableFuture.supplyAsync(() -> db.query(ENDLESS, cancel));
        // cancelled while it iterates (or even before it starts: either way it must end, cancelled)
        Thread.sleep(300);
        cancel.cancel();
        ExecutionException e = assertThrows(ExecutionException.class, run::get);
        assertInstanceOf(QueryCancelledException.class, e.getCause());
        assertTrue(noTemporaryFiles(), "the iterations' tables are deleted with the statement");
    }

    @Test
    void theIterationsTablesAreGoneWhenTheStatementEnds() throws Exception {
        assertEquals(15L, ((Number) db.query("WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t "
                + "WHERE n < 5) SELECT sum(n) FROM t").rows().getFirst()[0]).longValue());
        assertTrue(noTemporaryFiles());
    }

    @Test
    void aQueryPreparedWithoutRunningItIsRefusedWithTheReason() {
        SqlError e = assertThrows(SqlError.class, () -> db.engine().prepare(ENDLESS));
        assertTrue(e.getMessage().contains("WITH RECURSIVE"), e.getMessage());
    }

    private static boolean noTemporaryFiles() throws Exception {
        Path files = dir.resolve(".files");
        if (!Files.exists(files)) {
            return true;
        }
        try (Stream<Path> s = Files.list(files)) {
            return s.findAny().isEmpty();
        }
    }
}
