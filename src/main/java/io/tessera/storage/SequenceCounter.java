package io.tessera.storage;

/**
 * One sequence's values while a statement runs: nextval, currval and setval as DuckDB computes them, safe to call
 * from every worker at once (each call holds this counter's lock, so no value is handed out twice). It starts from
 * the state the manifest held when the statement began; {@link #state} is what the statement leaves to be kept.
 * A failed call changes nothing; its error is a {@link SequenceException}.
 */
public final class SequenceCounter {

    private final Sequence loaded;
    private Sequence state; // guarded by this

    SequenceCounter(Sequence loaded) {
        this.loaded = loaded;
        this.state = loaded;
    }

    /** nextval: the counter's value, the counter moved on by the increment (past a bound, to the other if cycling). */
    public synchronized long next() {
        Sequence s = state;
        long result = s.counter();
        long moved = result + s.increment();
        boolean overflow = ((result ^ moved) & (s.increment() ^ moved)) < 0;
        if (s.cycle()) {
            if (overflow) {
                moved = s.increment() < 0 ? s.maxValue() : s.minValue();
            } else if (moved < s.minValue()) {
                moved = s.maxValue();
            } else if (moved > s.maxValue()) {
                moved = s.minValue();
            }
        } else {
            if (result < s.minValue() || overflow && s.increment() < 0) {
                throw new SequenceException("nextval: reached minimum value of sequence \"" + s.name() + "\" ("
                        + s.minValue() + ")");
            }
            if (result > s.maxValue() || overflow) {
                throw new SequenceException("nextval: reached maximum value of sequence \"" + s.name() + "\" ("
                        + s.maxValue() + ")");
            }
        }
        state = s.withState(moved, result, true);
        return result;
    }

    /** currval: the value the last nextval (or setval) gave; an error before the first. */
    public synchronized long current() {
        if (!state.used()) {
            throw new SequenceException("currval: sequence is not yet defined in this session");
        }
        return state.lastValue();
    }

    /** setval: {@code value} becomes currval's, and the next nextval gives the value after it. */
    public synchronized long set(long value) {
        Sequence s = state;
        if (value < s.minValue() || value > s.maxValue()) {
            throw new SequenceException("setval: value " + value + " is out of bounds for sequence \"" + s.name()
                    + "\" (" + s.minValue() + ".." + s.maxValue() + ")");
        }
        state = s.withState(value, value, true);
        try {
            next();
        } catch (SequenceException e) {
            // the value after it passes BIGINT's range: a counter cannot hold it, so the call fails rather than
            // hand value out again
            state = s;
            throw new SequenceException("setval: value " + value + " of sequence \"" + s.name()
                    + "\" leaves no value for nextval (BIGINT's range ends there)");
        }
        state = state.withState(state.counter(), value, true);
        return value;
    }

    /** The sequence as the statement leaves it. */
    public synchronized Sequence state() {
        return state;
    }

    /** Whether the statement changed the sequence's state. */
    public synchronized boolean changed() {
        return !state.equals(loaded);
    }
}
