package io.tessera.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Positions in a statement's errors named where the statement stands in the text it was split from. */
class StatementStartTest {

    private static StatementStart startOf(String text, int statement) {
        StatementSplitter.Piece piece = StatementSplitter.pieces(text).get(statement);
        return StatementStart.of(text, piece.offset());
    }

    @Test
    void aStatementStartsWhereItsFirstWordIs() {
        assertEquals(new StatementStart(1, 1), startOf("select 1; selec 2", 0));
        assertEquals(new StatementStart(1, 11), startOf("select 1; selec 2", 1));
        assertEquals(new StatementStart(3, 3), startOf("select 1;\n\n  select 2", 1));
        // a comment before the statement is part of it, as the parser reads it
        assertEquals(new StatementStart(2, 1), startOf("select 1;\n-- two\nselect 2", 1));
        // \r\n is one line break, as is \r alone
        assertEquals(new StatementStart(3, 2), startOf("select 1;\r\n\r\n select 2", 1));
        assertEquals(new StatementStart(2, 1), startOf("select 1;\rselect 2", 1));
        // the text after the last semicolon is a statement too
        assertEquals(List.of("select 1", "select 2"), StatementSplitter.statements("select 1;  select 2"));
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
    void aViewsErrorKeepsThePositionsInTheViewsQuery() {
        assertEquals("view v: At line 1, column 8: Column 'a' not found in any table",
                new StatementStart(2, 3).moved("view v: At line 1, column 8: Column 'a' not found in any table"));
        assertEquals("From line 2, column 7 to line 2, column 7: view v: At line 1, column 8: no",
                new StatementStart(2, 3).moved("From line 1, column 5 to line 1, column 5: view v: At line 1,"
                        + " column 8: no"));
    }
}
