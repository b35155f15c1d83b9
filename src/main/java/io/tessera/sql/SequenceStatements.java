package io.tessera.sql;

import io.tessera.sql.parser.TesseraParserImplConstants;
import io.tessera.storage.Sequence;

import java.util.List;
import java.util.Locale;

/**
 * DuckDB's sequence statements, read from their tokens: {@code CREATE [OR REPLACE] [TEMP | TEMPORARY] SEQUENCE [IF
 * NOT EXISTS] name [INCREMENT [BY] n] [MINVALUE n | NO MINVALUE] [MAXVALUE n | NO MAXVALUE] [START [WITH] n] [[NO]
 * CYCLE]} (the options in any order, each once) and {@code DROP SEQUENCE [IF EXISTS] name}. The sequence's values
 * are computed by storage.SequenceCounter; nextval, currval and setval are typed by {@link NumericFunctions}.
 */
final class SequenceStatements {

    private SequenceStatements() {
    }

    /** Whether the statement's leading tokens open a CREATE or DROP of a sequence. */
    static boolean isSequence(List<LeadingTokens.Token> head) {
        int i = LeadingTokens.objectAt(head);
        return i < head.size() && head.get(i).named("SEQUENCE");
    }

    static Statement parse(String sql) {
        List<LeadingTokens.Token> t = LeadingTokens.read(sql, Integer.MAX_VALUE);
        TokenReader r = new TokenReader(t);
        if (t.getFirst().is(TesseraParserImplConstants.DROP)) {
            r.next(); // DROP
            r.next(); // SEQUENCE
            boolean ifExists = r.accept("IF");
            if (ifExists) {
                r.expect("EXISTS");
            }
            String name = r.name("sequence");
            r.end();
            return new Statement.DropSequence(name, ifExists);
        }
        r.next(); // CREATE
        boolean replace = r.accept("OR");
        if (replace) {
            r.expect("REPLACE");
        }
        boolean temporary = r.accept("TEMP") || r.accept("TEMPORARY");
        LeadingTokens.Token create = t.getFirst();
        r.next(); // SEQUENCE
        boolean ifNotExists = false;
        if (r.peek().named("IF")) {
            r.next();
            r.expect("NOT");
            r.expect("EXISTS");
            ifNotExists = true;
        }
        if (replace && ifNotExists) {
            throw new SqlError("Cannot specify both OR REPLACE and IF NOT EXISTS within single create statement"
                    + create.at());
        }
        String name = r.name("sequence");
        Long increment = null;
        Long min = null;
        Long max = null;
        Long start = null;
        Boolean cycle = null;
        boolean noMin = false;
        boolean noMax = false;
        while (!r.peek().isEnd()) {
            LeadingTokens.Token option = r.next();
            String word = option.image().toUpperCase(Locale.ROOT);
            switch (word) {
                case "INCREMENT" -> {
                    once(increment != null, option);
                    r.accept("BY");
                    increment = r.number();
                }
                case "MINVALUE" -> {
                    once(min != null || noMin, option);
                    min = r.number();
                }
                case "MAXVALUE" -> {
                    once(max != null || noMax, option);
                    max = r.number();
                }
                case "START" -> {
                    once(start != null, option);
                    r.accept("WITH");
                    start = r.number();
                }
                case "CYCLE" -> {
                    once(cycle != null, option);
                    cycle = true;
                }
                case "NO" -> {
                    LeadingTokens.Token what = r.next();
                    if (what.named("MINVALUE")) {
                        once(min != null || noMin, what);
                        noMin = true;
                    } else if (what.named("MAXVALUE")) {
                        once(max != null || noMax, what);
                        noMax = true;
                    } else if (what.named("CYCLE")) {
                        once(cycle != null, what);
                        cycle = false;
                    } else {
                        throw new SqlError("syntax error" + what.at() + ": NO is followed by MINVALUE, MAXVALUE or"
                                + " CYCLE");
                    }
                }
                default -> throw new SqlError("syntax error" + option.at() + ": " + option.image() + " is no option of"
                        + " CREATE SEQUENCE (INCREMENT BY, MINVALUE, MAXVALUE, START WITH, CYCLE)");
            }
        }
        try {
            Sequence s = Sequence.define(name, increment == null ? 1 : increment, min, max, start,
                    cycle != null && cycle);
            return new Statement.CreateSequence(s, ifNotExists, replace, temporary);
        } catch (IllegalArgumentException e) {
            throw new SqlError(e.getMessage() + create.at(), e);
        }
    }

    /** DuckDB's error for an option given twice. */
    private static void once(boolean given, LeadingTokens.Token option) {
        if (given) {
            throw new SqlError("Multiple " + option.image().toUpperCase(Locale.ROOT) + "s" + option.at()
                    + ": each option of CREATE SEQUENCE is given once");
        }
    }
}
