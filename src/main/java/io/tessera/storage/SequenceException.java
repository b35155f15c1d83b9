package io.tessera.storage;

/**
 * A sequence function's failure while a query runs (a bound reached, currval before nextval, no such sequence), in
 * DuckDB's words: an {@link ArithmeticException}, as other failures of a value are, whose message is the whole error.
 */
public final class SequenceException extends ArithmeticException {

    public SequenceException(String message) {
        super(message);
    }
}
