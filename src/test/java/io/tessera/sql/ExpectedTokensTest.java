package io.tessera.sql;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The parser's expected tokens said in a few words. */
class ExpectedTokensTest {

    @Test
    void oneTokenIsNamed() {
        assertEquals("; expected \")\"", ExpectedTokens.describe(List.of("\")\"")));
        assertEquals("", ExpectedTokens.describe(List.of()));
        assertEquals("", ExpectedTokens.describe(null));
    }

    @Test
    void punctuationComesFirstThenKeywordsThenKindsOfToken() {
        assertEquals("; expected one of: \",\", FROM, LIMIT, a name, the end of the statement",
                ExpectedTokens.describe(List.of("<EOF>", "\"LIMIT\"", "\"FROM\"", "\",\"", "<IDENTIFIER>",
                        "<QUOTED_IDENTIFIER>", "<BACK_QUOTED_IDENTIFIER>")));
    }

    @Test
    void theStartsOfAnExpressionAreAnExpression() {
        List<String> tokens = new ArrayList<>(List.of("\"(\"", "\"+\"", "\"-\"", "\"?\"", "\"CASE\"", "\"CAST\"",
                "\"EXISTS\"", "\"NOT\"", "\"NULL\"", "\"TRUE\"", "\"INTERVAL\"", "\"CURRENT_DATE\"",
                "<UNSIGNED_INTEGER_LITERAL>", "<QUOTED_STRING>", "<IDENTIFIER>", "<LBRACE_FN>", "\"MULTISET\""));
        assertEquals("; expected an expression", ExpectedTokens.describe(tokens));
        tokens.add("\"ROLLUP\"");
        assertEquals("; expected one of: ROLLUP, an expression", ExpectedTokens.describe(tokens));
    }

    @Test
    void operatorsAreOneWordAndCalcitesOwnSyntaxIsLeftOut() {
        assertEquals("; expected one of: AS, an operator",
                ExpectedTokens.describe(List.of("\"+\"", "\"-\"", "\"*\"", "\"/\"", "\"AND\"", "\"OR\"", "\"AS\"",
                        "\"/*+\"", "\"EXTEND\"", "\"MATCH_RECOGNIZE\"")));
    }

    @Test
    void manyKeywordsAreCut() {
        List<String> units = List.of("DAY", "DAYS", "HOUR", "HOURS", "MINUTE", "MINUTES", "MONTH", "MONTHS",
                "SECOND", "SECONDS", "YEAR", "YEARS");
        String s = ExpectedTokens.describe(units.stream().map(u -> "\"" + u + "\"").toList());
        assertTrue(s.startsWith("; expected one of: DAY, DAYS, HOUR, HOURS, MINUTE, MINUTES, MONTH, MONTHS, "
                + "4 more keywords"), s);
    }
}
