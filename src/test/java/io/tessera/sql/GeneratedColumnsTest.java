package io.tessera.sql;

import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.TableSchema;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@link GeneratedColumns}: the query a write computes them with, what they read, renames and refusals. */
class GeneratedColumnsTest {

    private static final TableSchema T = new TableSchema("t", List.of(
            new ColumnSchema("x", DataType.INTEGER, true),
            new ColumnSchema("y", DataType.INTEGER, true, null, "x + 1"),
            new ColumnSchema("z", DataType.BIGINT, true, null, "Y * \"x\""),
            new ColumnSchema("w", DataType.VARCHAR, true)));

    @Test
    void theComputingQueryExpandsTheGeneratedColumnsAnExpressionReads() {
        assertEquals("SELECT `x` AS `x`, CAST(`x` + 1 AS INTEGER) AS `y`,"
                + " CAST(CAST(`x` + 1 AS INTEGER) * `x` AS BIGINT) AS `z`, `w` AS `w`\nFROM `t`",
                GeneratedColumns.computed(T).toString());
    }

    @Test
    void readersAreFoundIgnoringCase() {
        assertEquals(List.of("y", "z"), GeneratedColumns.reading(T, "X").stream().map(ColumnSchema::name).toList());
        assertEquals(List.of("z"), GeneratedColumns.reading(T, "y").stream().map(ColumnSchema::name).toList());
        assertEquals(List.of(), GeneratedColumns.reading(T, "w"));
        assertEquals(List.of("x", "w"), GeneratedColumns.written(T));
    }

    @Test
    void aRenameRewritesOnlyTheNamesOfTheColumn() {
        assertEquals("Y * \"v\"", GeneratedColumns.renamed(T.columns().get(2), "t", "x", "v").generated());
        assertEquals("v + 1", GeneratedColumns.renamed(T.columns().get(1), "t", "X", "v").generated());
        assertSame(T.columns().get(3), GeneratedColumns.renamed(T.columns().get(3), "t", "x", "v"));
        assertEquals("CAST((x + 1) AS INTEGER)", GeneratedColumns.shown(T.columns().get(1)));
    }

    @Test
    void alterationsDuckDbRefusesAreRefused() {
        assertEquals("Cannot drop column: column is a dependency of 1 or more generated column(s)",
                assertThrows(SqlError.class, () -> GeneratedColumns.checkAlter(T, AlterTableNode.Action.DROP_COLUMN,
                        "x")).getMessage());
        assertEquals("This column is referenced by the generated column \"y\", so its type can not be changed",
                assertThrows(SqlError.class, () -> GeneratedColumns.checkAlter(T, AlterTableNode.Action.SET_TYPE,
                        "x")).getMessage());
        GeneratedColumns.checkAlter(T, AlterTableNode.Action.DROP_COLUMN, "z"); // read by none
        GeneratedColumns.checkAlter(T, AlterTableNode.Action.SET_TYPE, "w");
    }
}
