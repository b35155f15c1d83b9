package io.tessera.difftest;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Constructs the metamorphic generators leave out because the engine is known to get them wrong (or to refuse
 * them in one of two equivalent forms). Each names the bug and a minimal reproducing SQL; once the engine is
 * fixed, the constant goes. {@code -Dtessera.metamorphic.include=NAME,...} generates them anyway, to check a fix.
 */
public enum ExcludedConstruct {

    /**
     * Never generated (the predicates' constants have at most three decimals): a BIGINT compared with a DECIMAL
     * of a large scale is compared as DECIMAL(18, scale), and a BIGINT value with more digits than 18 - scale fails
     * with a range error where DuckDB answers. With t(b BIGINT) holding 5: {@code SELECT count(*) FROM t WHERE
     * b * 1000000000000 < 1.123456789} fails with "value 5000000000000 is out of range for DECIMAL(18,9)" (DuckDB:
     * 0). An error, not a wrong answer; the generators stay clear of it so that both forms of a check run.
     */
    BIGINT_AGAINST_LONG_DECIMAL,

    /**
     * Not the engine's: with assertions on (as in the tests), Calcite's RexSimplify.validateStrongPolicy fails an
     * {@code assert} while simplifying an IS NULL of a CASE whose branch compares a CASE over BIGINT and DECIMAL
     * columns. With t(k INTEGER, c2 DECIMAL(12,3), c3 BIGINT, c4 BIGINT): {@code SELECT count(*) FROM t WHERE (CASE
     * WHEN k > 5 THEN k > 1 ELSE CASE WHEN c3 >= c2 THEN 1 ELSE c4 END >= 0 END) IS NULL}. Without assertions
     * the query runs and its answers keep the relations. Such a check is counted as refused, not failed.
     */
    CALCITE_STRONG_POLICY_ASSERTION;

    /** Whether {@code e}, thrown by a query, is this known failure (only those that are errors, not generation). */
    public boolean matches(Throwable e) {
        if (this != CALCITE_STRONG_POLICY_ASSERTION || !(e instanceof AssertionError)) {
            return false;
        }
        StackTraceElement[] st = e.getStackTrace();
        return st.length > 0 && st[0].getClassName().equals("org.apache.calcite.rex.RexSimplify")
                && st[0].getMethodName().equals("validateStrongPolicy");
    }

    private static final Set<String> INCLUDED = Arrays.stream(
                    System.getProperty("tessera.metamorphic.include", "").split(","))
            .map(String::trim).filter(s -> !s.isEmpty()).collect(Collectors.toSet());

    /** Whether generators leave this construct out. */
    public boolean excluded() {
        return !INCLUDED.contains(name());
    }
}
