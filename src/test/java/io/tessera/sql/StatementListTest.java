package io.tessera.sql;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Several statements in one text, split where the tokenizer reads a semicolon. */
class StatementListTest {

    @Test
    void semicolonsSeparateStatements() {
        assertEquals(List.of("select 1"), StatementList.split("select 1"));
        assertEquals(List.of("select 1"), StatementList.split(" select 1 ; "));
        assertEquals(List.of("select 1", "select 2"), StatementList.split("select 1; select 2;"));
        assertEquals(List.of("create table t (a int)", "insert into t values (1)"),
                StatementList.split("create table t (a int);\n;\ninsert into t values (1)"));
        assertEquals(List.of(), StatementList.split(" ;; "));
    }

    @Test
    void aSemicolonInAStringANameOrACommentSeparatesNothing() {
        assertEquals(List.of("select 'a;b', \"c;d\" from t", "select 2"),
                StatementList.split("select 'a;b', \"c;d\" from t; select 2"));
        assertEquals(List.of("select 1 -- one; two\n+ 1", "select /* a; b */ 2"),
                StatementList.split("select 1 -- one; two\n+ 1; select /* a; b */ 2"));
        assertEquals(List.of("select 'it''s; here'"), StatementList.split("select 'it''s; here'"));
        // a piece of only comments is no statement
        assertEquals(List.of("select 1"), StatementList.split("select 1; -- the end"));
    }

    @Test
    void textTheTokenizerCannotReadIsOneStatementWhoseParseNamesTheError() {
        // an unclosed quote is a token of its own: the statement it begins fails, saying the string is unterminated
        assertEquals(List.of("select 1", "select 'open", "still open"),
                StatementList.split("select 1; select 'open; still open"));
        assertEquals(List.of("select 1", "select 1 /* open; comment"),
                StatementList.split("select 1; select 1 /* open; comment"));
    }
}
