package io.tessera.cli;

/** Turns an exception into the one line a user reads. */
final class Errors {
    private Errors() {
    }

    static String describe(Throwable ex) {
        String msg = ex.getMessage();
        if (msg == null || msg.isBlank()) {
            Throwable c = ex.getCause();
            return c != null ? describe(c) : ex.getClass().getSimpleName();
        }
        return msg;
    }
}
