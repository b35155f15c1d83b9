package io.tessera.backend.host;

import io.tessera.storage.Column;
import io.tessera.storage.DataType;
import io.tessera.storage.Dictionary;

import java.lang.foreign.MemorySegment;

/**
 * A column as generated code reads it: little-endian values in a segment (mapped file or heap array), a validity
 * bitmap (bit set = valid) or null, and for VARCHAR the dictionary its codes index.
 */
public record ColumnData(DataType type, MemorySegment data, MemorySegment validity, Dictionary dictionary) {

    public static ColumnData of(Column c) {
        return new ColumnData(c.type(), c.data(), c.validity(),
                c.type().kind() == io.tessera.storage.TypeKind.VARCHAR ? c.dictionary() : null);
    }
}
