package io.tessera.data;

import io.tessera.storage.Column;
import io.tessera.storage.Table;
import io.tessera.storage.TypeKind;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/** A table's content in a line per column: statistics, a checksum of its values, and of its dictionary's strings. */
public final class TableChecksums {

    private TableChecksums() {
    }

    public static String of(Table t) {
        StringBuilder sb = new StringBuilder(t.name()).append(' ').append(t.rowCount()).append('\n');
        for (Column c : t.columns()) {
            sb.append(c.name()).append(' ').append(c.stats()).append(" values ").append(crc(c.data()));
            if (c.hasNulls()) {
                sb.append(" validity ").append(crc(c.validity()));
            }
            if (c.type().kind() == TypeKind.VARCHAR) {
                CRC32C crc = new CRC32C();
                for (int k = 0; k < c.dictionary().size(); k++) {
                    crc.update(c.dictionary().value(k).getBytes(StandardCharsets.UTF_8));
                    crc.update(0);
                }
                sb.append(" dictionary ").append(c.dictionary().size()).append(' ')
                        .append(Long.toHexString(crc.getValue()));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String crc(MemorySegment seg) {
        CRC32C crc = new CRC32C();
        if (seg.byteSize() > 0) {
            crc.update(seg.asByteBuffer());
        }
        return Long.toHexString(crc.getValue());
    }
}
