package io.tessera.sql;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What the parser expected where a statement failed, in a few words: Calcite lists every token that could follow
 * (up to a hundred, with each kind of quoted name and literal of its other dialects); this says {@code expected
 * ")"}, or {@code expected one of: ",", FROM, AS, a name, an operator, the end of the statement}. The tokens that
 * can start an expression are said as "an expression", each kind of name as "a name", of literal as "a value", and
 * the tokens of Calcite's own extensions that Tessera's SQL does not have are left out.
 */
final class ExpectedTokens {

    /** Punctuation and keywords shown at most; beyond them the count of the others. */
    private static final int MAX_SHOWN = 8;

    /**
     * Tokens that only start an expression (with names, values and "(" they mean "an expression"; "[" a list, "{" a
     * struct).
     */
    private static final Set<String> EXPRESSION_STARTS = Set.of("ARRAY", "CASE", "CAST", "CURRENT_CATALOG",
            "CURRENT_DATE", "CURRENT_PATH", "CURRENT_ROLE", "CURRENT_SCHEMA", "CURRENT_TIME", "CURRENT_TIMESTAMP",
            "CURRENT_USER", "EXISTS", "INTERVAL", "LEFT", "LOCALTIME", "LOCALTIMESTAMP", "MULTISET", "NEW", "NEXT",
            "NOT", "PERIOD", "RANGE", "RIGHT", "SESSION_USER", "SOME", "SYSTEM_USER", "UNIQUE", "USER", "+", "-", "?", "[", "{", "~");

    /** Tokens that continue an expression with an operator. */
    private static final Set<String> OPERATORS = Set.of("!=", "%", "*", "+", "-", "/", "<", "<=", "<>", "=", ">",
            ">=", "||", "AND", "OR", "IS", "IN", "LIKE", "ILIKE", "SIMILAR", "NOT", "OVERLAPS", "MULTISET", "[",
            "BETWEEN", "MEMBER", "SUBMULTISET", "CONTAINS", "EQUALS", "PRECEDES", "SUCCEEDS", "IMMEDIATELY", "::", "//", "**",
            "RLIKE", "^", "!", "~~", "!~~", "~~*", "!~~*", "~~~", "^@", "GLOB", "&", "|", "<<", ">>", "->", "->>");

    /** Calcite's own syntax that Tessera's SQL does not offer: never suggested. */
    private static final Set<String> NOT_OFFERED = Set.of("/*+", "EXTEND", "MATCH_RECOGNIZE", "STREAM", "MINUS",
            "NEW", "PERIOD", "MULTISET", "FOR", "LATERAL", "UNKNOWN", "APPLY", "MEASURES", "FORMAT");

    private ExpectedTokens() {
    }

    /** {@code "; expected ..."} for the parser's expected token names, or "" where it gave none. */
    static String describe(Collection<String> expected) {
        if (expected == null || expected.isEmpty()) {
            return "";
        }
        Set<String> tokens = new LinkedHashSet<>();
        boolean name = false;
        boolean value = false;
        boolean end = false;
        for (String raw : expected) {
            if (raw.equals("<EOF>")) {
                end = true;
            } else if (raw.startsWith("<")) {
                if (raw.contains("IDENTIFIER")) {
                    name = true;
                } else if (raw.contains("LITERAL") || raw.contains("STRING")) {
                    value = true;
                }
                // <LBRACE_D>, ...: JDBC escapes, not offered
            } else {
                tokens.add(raw.length() >= 2 && raw.startsWith("\"") && raw.endsWith("\"")
                        ? raw.substring(1, raw.length() - 1) : raw);
            }
        }
        tokens.removeAll(NOT_OFFERED);
        List<String> words = new ArrayList<>();
        boolean expression = name && tokens.contains("CASE") && tokens.contains("CAST");
        if (expression) {
            tokens.removeAll(EXPRESSION_STARTS);
            tokens.removeAll(List.of("TRUE", "FALSE", "NULL", "("));
        }
        long operators = tokens.stream().filter(OPERATORS::contains).count();
        boolean operator = operators >= 4;
        if (operator) {
            tokens.removeAll(OPERATORS);
            tokens.remove("(");
        }
        List<String> punctuation = tokens.stream().filter(t -> !Character.isLetter(t.charAt(0))).toList();
        List<String> keywords = tokens.stream().filter(t -> Character.isLetter(t.charAt(0))).sorted().toList();
        for (String p : punctuation) {
            words.add("\"" + p + "\"");
        }
        words.addAll(keywords);
        int others = Math.max(0, words.size() - MAX_SHOWN);
        List<String> shown = new ArrayList<>(words.subList(0, Math.min(MAX_SHOWN, words.size())));
        if (others > 0) {
            shown.add(others + " more keyword" + (others == 1 ? "" : "s"));
        }
        if (expression) {
            shown.add("an expression");
        } else {
            if (name) {
                shown.add("a name");
            }
            if (value) {
                shown.add("a value");
            }
        }
        if (operator) {
            shown.add("an operator");
        }
        if (end) {
            shown.add("the end of the statement");
        }
        if (shown.isEmpty()) {
            return "";
        }
        String list = String.join(", ", shown);
        return shown.size() == 1 ? "; expected " + list : "; expected one of: " + list;
    }
}
