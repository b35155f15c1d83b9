package io.tessera.sql;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Positions in a statement's errors named where the statement stands in the text it was split from. */
class StatementStartTest {

    @Test
    void aPositionCountsLinesAndColumnsAsTheParserDoes() {
        assertEquals(new StatementStart(1, 1), StatementStart.of("select 1; selec 2", 0));
        assertEquals(new StatementStart(1, 11), StatementStart.of("select 1; selec 2", 10));
        assertEquals(new StatementStart(3, 3), StatementStart.of("select 1;\n\n  select 2", 13));
        // \r\n is one line break, as is \r alone
        assertEquals(new StatementStart(3, 2), StatementStart.of("select 1;\r\n\r\n select 2", 14));
        assertEquals(new StatementStart(2, 1), StatementStart.of("select 1;\rselect 2", 10));
    }

    @Test
    void positionsOnTheStatementsFirstLineMoveByItsColumnTheOthersByItsLine() {
        StatementStart start = new StatementStart(1, 11);
        assertEquals("syntax error at line 1, column 11 at or near \"selec\"",
                start.moved("syntax error at line 1, column 1 at or near \"selec\""));
        assertEquals("From line 1, column 30 to line 1, column 35: Column 'x' not found in any table",
                start.moved("From line 1, column 20 to line 1, column 25: Column 'x' not found in any table"));
        assertEquals("From line 3, column 4 to line 3, column 9: Column 'x' not found in any table",
                new StatementStart(2, 7).moved("From line 2, column 4 to line 2, column 9: Column 'x' not found in"
                        + " any table"));
        assertEquals("type HUGEINT is not supported at line 1, column 1",
                StatementStart.FIRST.moved("type HUGEINT is not supported at line 1, column 1"));
        assertEquals(new StatementStart(4, 5), new StatementStart(3, 9).plus(new StatementStart(2, 5)));
    }

    @Test
    void aQueryInsideAStatementStartsWhereItsTextDoes() {
        assertEquals(new StatementStart(1, 9), StatementStart.ofInner("EXPLAIN select x from t ;; ", "select x from t"));
        assertEquals(new StatementStart(2, 3), StatementStart.ofInner("create table a as\n  select 1", "select 1"));
        assertEquals(StatementStart.FIRST, StatementStart.ofInner("describe t", "SELECT * FROM t"));
    }

    @Test
    void aViewsErrorKeepsThePositionsInTheViewsQuery() {
        assertEquals("view v: At line 1, column 8: Column 'a' not found in any table",
                new StatementStart(2, 3).moved("view v: At line 1, column 8: Column 'a' not found in any table"));
        assertEquals("From line 2, column 7 to line 2, column 7: view v: At line 1, column 8: no",
                new StatementStart(2, 3).moved("From line 1, column 5 to line 1, column 5: view v: At line 1,"
                        + " column 8: no"));
    }
}
