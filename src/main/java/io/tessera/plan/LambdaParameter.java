package io.tessera.plan;

/**
 * A lambda's parameter, the detail of an {@link Op#LAMBDA_PARAMETER} call: its number, unique in the query, so that a
 * nested lambda's parameters and the enclosing one's are told apart (the name a user gave it stays in the SQL).
 */
public record LambdaParameter(int id) {

    @Override
    public String toString() {
        return "p" + id;
    }
}
