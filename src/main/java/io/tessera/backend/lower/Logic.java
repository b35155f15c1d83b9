package io.tessera.backend.lower;

import io.tessera.plan.Op;

/**
 * SQL's three-valued logic. AND and OR: the left side decides alone when it is its connective's decisive value
 * (FALSE for AND, TRUE for OR, whatever the right side is, NULL included); otherwise the result is the right side
 * when the left is not NULL, and NULL unless the right side decides. The IS tests never give NULL.
 */
public final class Logic {
    private Logic() {
    }

    /** AND or OR. */
    public enum Connective {
        AND(false, "&&"), OR(true, "||");

        /** The value of one side that decides the result alone. */
        public final boolean decisive;
        /** The C-like short-circuit operator of two sides that cannot be NULL. */
        public final String symbol;

        Connective(boolean decisive, String symbol) {
            this.decisive = decisive;
            this.symbol = symbol;
        }

        public static Connective of(Op op) {
            return switch (op) {
                case AND -> AND;
                case OR -> OR;
                default -> throw new IllegalArgumentException("not a connective: " + op);
            };
        }
    }

    /** What an IS test gives for a value that is not NULL. */
    public enum OnValue {
        /** the value itself. */
        VALUE,
        /** its negation. */
        NEGATED,
        /** TRUE, whatever the value. */
        TRUE,
        /** FALSE, whatever the value. */
        FALSE
    }

    /** An IS test: its result for NULL, and for a value that is not NULL. */
    public record Test(boolean onNull, OnValue onValue) {
    }

    /** IS [NOT] NULL, IS [NOT] TRUE, IS [NOT] FALSE. */
    public static Test test(Op op) {
        return switch (op) {
            case IS_NULL -> new Test(true, OnValue.FALSE);
            case IS_NOT_NULL -> new Test(false, OnValue.TRUE);
            case IS_TRUE -> new Test(false, OnValue.VALUE);
            case IS_NOT_TRUE -> new Test(true, OnValue.NEGATED);
            case IS_FALSE -> new Test(false, OnValue.NEGATED);
            case IS_NOT_FALSE -> new Test(true, OnValue.VALUE);
            default -> throw new IllegalArgumentException("not an IS test: " + op);
        };
    }
}
