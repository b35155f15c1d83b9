package io.tessera.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatementSplitterTest {

    @Test
    void splitsAtSemicolons() {
        assertEquals(List.of("select 1", "select 2"), StatementSplitter.statements("select 1; select 2;"));
        assertEquals(List.of("select 1", "select 2"), StatementSplitter.statements("select 1;\n\n select 2"));
        assertEquals(List.of(), StatementSplitter.statements(" ;; \n ; "));
    }

    @Test
    void semicolonsInsideStringsAndQuotedNamesDoNotSplit() {
        assertEquals(List.of("select 'a;b', 'it''s; here'", "select \"x;y\" from t"),
                StatementSplitter.statements("select 'a;b', 'it''s; here'; select \"x;y\" from t;"));
        assertEquals(List.of("select ''", "select 2"), StatementSplitter.statements("select '';select 2"));
    }

    @Test
    void semicolonsInsideCommentsDoNotSplit() {
        assertEquals(List.of("select 1 -- one; two\n+ 1", "select /* a; b */ 2"),
                StatementSplitter.statements("select 1 -- one; two\n+ 1; select /* a; b */ 2;"));
    }

    @Test
    void commentOnlyPiecesAreNoStatements() {
        assertEquals(List.of("select 1"),
                StatementSplitter.statements("-- header;\n/* block; */ ; select 1; -- trailing"));
    }

    @Test
    void reportsWhatIsStillOpen() {
        StatementSplitter.Split s = StatementSplitter.split("select 1; select 'abc;");
        assertEquals(List.of("select 1"), s.statements());
        assertTrue(s.pending());
        assertTrue(s.restOpen());

        s = StatementSplitter.split("select 1; select 2");
        assertEquals(" select 2", s.rest());
        assertTrue(s.restHasCode());
        assertFalse(s.restOpen());

        s = StatementSplitter.split("select 1; /* still ; open");
        assertEquals(List.of("select 1"), s.statements());
        assertFalse(s.restHasCode());
        assertTrue(s.pending());

        s = StatementSplitter.split("select 1; -- done");
        assertFalse(s.pending());
    }

    @Test
    void lineParserAcceptsOnlyCompleteInput() {
        assertTrue(SqlLineParser.isComplete("select 1;"));
        assertTrue(SqlLineParser.isComplete(""));
        assertTrue(SqlLineParser.isComplete("  \\d lineorder"));
        assertFalse(SqlLineParser.isComplete("select 1"));
        assertFalse(SqlLineParser.isComplete("select 'a;\n"));
        assertTrue(SqlLineParser.isComplete("select 1;\nselect 2; -- c"));
    }

    @Test
    void eachStatementSaysWhereItStarts() {
        assertEquals(List.of(new StatementSplitter.Piece("select 1", 0), new StatementSplitter.Piece("selec 2", 10)),
                StatementSplitter.pieces("select 1; selec 2"));
        // a comment before a statement is part of it, as the parser reads it; spaces are not
        assertEquals(List.of(new StatementSplitter.Piece("select 1", 0), new StatementSplitter.Piece("-- two\nselect 2",
                12)), StatementSplitter.pieces("select 1;\n  -- two\nselect 2;"));
    }
}
