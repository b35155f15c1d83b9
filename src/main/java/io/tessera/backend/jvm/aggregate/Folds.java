package io.tessera.backend.jvm.aggregate;

import io.tessera.plan.AggFunction;

/**
 * The operation of each folding aggregate ({@link AggFunction#fold()}): the Java expression generated code updates a
 * state with, and the same operation where two workers' states are merged.
 */
public final class Folds {

    private Folds() {
    }

    /** The Java expression that folds {@code value} into {@code state}. */
    static String expression(AggFunction f, String state, String value) {
        return switch (f) {
            case PRODUCT -> state + " * " + value;
            case BIT_AND -> state + " & " + value;
            case BIT_OR -> state + " | " + value;
            case BIT_XOR -> state + " ^ " + value;
            default -> throw new IllegalArgumentException(f + " is no fold");
        };
    }

    /** Two integer states of a bitwise fold merged. */
    static long apply(AggFunction f, long a, long b) {
        return switch (f) {
            case BIT_AND -> a & b;
            case BIT_OR -> a | b;
            case BIT_XOR -> a ^ b;
            default -> throw new IllegalArgumentException(f + " folds no integers");
        };
    }

    /** Two products merged. */
    static double product(double a, double b) {
        return a * b;
    }
}
