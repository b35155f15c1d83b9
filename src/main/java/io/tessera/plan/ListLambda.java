package io.tessera.plan;

import java.util.List;

/**
 * The detail of an {@link Op#LIST_LAMBDA} call: what it does with its lambda, and the lambda's parameters, which its
 * body reads as {@link Op#LAMBDA_PARAMETER} calls. For each element of the list (args[0]) the parameters are bound
 * to, in order: for TRANSFORM, FILTER and COMPREHENSION the element and its 1-based position (a BIGINT); for REDUCE
 * the value so far, the element and the element's position. A lambda may have fewer parameters than these.
 */
public record ListLambda(Kind kind, List<LambdaParameter> parameters) {

    public ListLambda {
        parameters = List.copyOf(parameters);
    }

    /**
     * TRANSFORM (list, body): the list of the body's values. FILTER (list, condition): the elements whose condition is
     * TRUE. REDUCE (list, body[, initial]): the body applied from the first element (or the initial value) on, each
     * value of the accumulated type; a list without elements and without an initial value fails, as in DuckDB.
     * COMPREHENSION (list, result, condition): the results of the elements whose condition is TRUE (every element's
     * result computed, as DuckDB computes it).
     */
    public enum Kind { TRANSFORM, FILTER, REDUCE, COMPREHENSION }

    @Override
    public String toString() {
        return kind.name().toLowerCase(java.util.Locale.ROOT) + parameters;
    }
}
