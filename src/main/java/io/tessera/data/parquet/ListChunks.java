package io.tessera.data.parquet;

import io.tessera.data.io.InvalidUtf8;
import io.tessera.storage.ColumnBuilder;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.ListCodec;
import org.apache.parquet.VersionParser;
import org.apache.parquet.column.impl.ColumnReaderImpl;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.PrimitiveConverter;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/**
 * A chunk of a Parquet LIST column (the three levels DuckDB writes: {@code optional group l (LIST) { repeated group
 * list { optional T element } }}) read into LIST values: per row, the elements up to the next repetition level 0,
 * a definition level below the list's own a NULL list, at the list's own an empty list, below the element's a NULL
 * element. Each list is stored as its encoding ({@link ListCodec}), each element as its canonical text.
 */
final class ListChunks {
    private ListChunks() {
    }

    /** Appends {@code rows} lists of the chunk to {@code out}; an IllegalArgumentException names what is wrong. */
    static void read(SourceColumn src, ColumnSchema target, ChunkPages pages, ColumnBuilder out,
                     VersionParser.ParsedVersion writer, int rows, InvalidUtf8 invalidUtf8) {
        int maxDefinition = src.descriptor().getMaxDefinitionLevel();
        int listDefined = src.optional() ? 1 : 0;
        Element element = new Element(src, invalidUtf8);
        ColumnReaderImpl reader = new ColumnReaderImpl(src.descriptor(), pages, element, writer);
        long values = pages.getTotalValueCount();
        long read = 0;
        StringBuilder list = new StringBuilder();
        for (int r = 0; r < rows; r++) {
            if (read >= values) {
                throw new IllegalArgumentException("the chunk ends before row " + r + " of its row group");
            }
            int definition = reader.getCurrentDefinitionLevel();
            if (definition < listDefined) {
                if (!target.nullable()) {
                    throw new IllegalArgumentException("NULL in a NOT NULL column");
                }
                out.appendNull();
                reader.consume();
                read++;
                continue;
            }
            list.setLength(0);
            if (definition == listDefined) { // the list is there, with no element
                reader.consume();
                read++;
            } else {
                do {
                    if (reader.getCurrentDefinitionLevel() < maxDefinition) {
                        ListCodec.append(list, null);
                    } else {
                        reader.writeCurrentValueToConverter();
                        ListCodec.append(list, element.text);
                    }
                    reader.consume();
                    read++;
                } while (read < values && reader.getCurrentRepetitionLevel() > 0);
            }
            out.appendString(list.toString());
        }
    }

    /** One element's (or a struct field's) canonical text ({@link ListCodec#text}), of the element's kind. */
    static final class Element extends PrimitiveConverter {
        private final SourceColumn src;
        private final InvalidUtf8 invalidUtf8;
        private final boolean asDouble; // a DECIMAL wider than 18 digits, read as DOUBLE
        String text;

        Element(SourceColumn src, InvalidUtf8 invalidUtf8) {
            this.src = src;
            this.invalidUtf8 = invalidUtf8;
            io.tessera.storage.DataType value = src.natural().isList() ? src.natural().element() : src.natural();
            this.asDouble = src.kind() == SourceColumn.Kind.DECIMAL && !value.kind().isInt64();
        }

        @Override
        public void addInt(int v) {
            text = switch (src.kind()) {
                case UNSIGNED_INT32 -> Long.toString(Integer.toUnsignedLong(v));
                case TIME -> Long.toString(ValueConverters.micros(v, src.scale(), "time"));
                default -> addLongText(v);
            };
        }

        @Override
        public void addLong(long v) {
            text = addLongText(v);
        }

        private String addLongText(long v) {
            return switch (src.kind()) {
                case DECIMAL -> asDouble ? ListCodec.text(BigDecimal.valueOf(v, src.scale()).doubleValue())
                        : Long.toString(v);
                case TIMESTAMP, INSTANT -> Long.toString(ValueConverters.micros(v, src.scale(), "timestamp"));
                case TIME -> Long.toString(ValueConverters.micros(v, src.scale(), "time"));
                default -> Long.toString(v);
            };
        }

        @Override
        public void addFloat(float v) {
            text = ListCodec.text((double) v);
        }

        @Override
        public void addDouble(double v) {
            text = ListCodec.text(v);
        }

        @Override
        public void addBoolean(boolean v) {
            text = Boolean.toString(v);
        }

        @Override
        public void addBinary(Binary v) {
            if (src.kind() == SourceColumn.Kind.DECIMAL) {
                BigDecimal d = new BigDecimal(new java.math.BigInteger(v.getBytes()), src.scale());
                text = asDouble ? ListCodec.text(d.doubleValue()) : d.unscaledValue().toString();
                return;
            }
            byte[] b = v.getBytes();
            java.nio.charset.CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder();
            if (invalidUtf8 == InvalidUtf8.REPLACE) {
                text = new String(b, StandardCharsets.UTF_8);
                return;
            }
            try {
                text = utf8.decode(java.nio.ByteBuffer.wrap(b)).toString();
            } catch (java.nio.charset.CharacterCodingException e) {
                throw new IllegalArgumentException("a list element or struct field is not UTF-8 text", e);
            }
        }
    }
}
