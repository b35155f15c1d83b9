package io.tessera.cli;

import io.tessera.storage.Database;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class GenCommandTest {

    @Test
    void genSsbWritesTheFiveTables(@TempDir Path dir) {
        assertEquals(0, Main.run("gen", "ssb", "--sf", "0.01", "--db", dir.toString(), "--seed", "3"));
        try (Database db = Database.open(dir)) {
            assertEquals(List.of("ddate", "customer", "supplier", "part", "lineorder"),
                    db.tables().stream().map(t -> t.name()).toList());
            assertEquals(300, db.table("customer").rowCount());
            assertEquals(20, db.table("supplier").rowCount());
        }
        // running again replaces the tables rather than adding rows
        assertEquals(0, Main.run("gen", "ssb", "--sf", "0.01", "--db", dir.toString(), "--seed", "3"));
        try (Database db = Database.open(dir)) {
            assertEquals(300, db.table("customer").rowCount());
        }
    }

    @Test
    void badScaleFactorIsAnError(@TempDir Path dir) {
        assertNotEquals(0, Main.run("gen", "ssb", "--sf", "0", "--db", dir.toString()));
        assertNotEquals(0, Main.run("gen", "tpch", "--sf", "-1", "--db", dir.toString()));
        assertNotEquals(0, Main.run("gen", "ssb", "--db", dir.toString()));
    }
}
