package io.tessera.backend.jvm.lib;

/** One part of a parsed FORMAT or PRINTF format: text as it is, or the conversion of one argument. */
interface FormatPiece {

    void append(StringBuilder out, Object[] args);

    /** Text between conversions. */
    record Text(String text) implements FormatPiece {
        @Override
        public void append(StringBuilder out, Object[] args) {
            out.append(text);
        }
    }
}
