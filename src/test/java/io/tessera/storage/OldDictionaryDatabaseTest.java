package io.tessera.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A database whose VARCHAR column was written with the old dictionary form (int offsets) keeps working: it opens,
 * reads and finds its strings, and an append rewrites the column in the current form.
 */
class OldDictionaryDatabaseTest {

    private static final List<String> WORDS = List.of("pear", "", "äpfel", "😀 smile", "ｚ", "apple", "pear");

    @Test
    void aColumnWithAnOldFormDictionaryIsReadAndAppendedTo(@TempDir Path dir) throws Exception {
        TableSchema schema = TableSchema.parse("t", "w VARCHAR NOT NULL");
        try (Database db = Database.openOrCreate(dir); TableWriter w = db.replace(schema)) {
            w.write(batch(schema, WORDS));
            w.commit();
        }
        String[] sorted;
        try (Database db = Database.open(dir)) {
            sorted = StorageRoundTripTest.strings(db.table("t").column("w").dictionary()).toArray(new String[0]);
        }
        rewriteDictionaryInOldForm(dir, sorted);

        try (Database db = Database.open(dir)) {
            Column c = db.table("t").column("w");
            Dictionary d = c.dictionary();
            assertEquals(6, d.size());
            for (int r = 0; r < WORDS.size(); r++) {
                assertEquals(WORDS.get(r), c.getString(r));
                assertEquals(c.getInt(r), d.code(WORDS.get(r)));
            }
            assertEquals(d.code("ｚ"), d.lowerBound("\uFFFF") - 1);
        }
        List<String> more = List.of("banana", "😀 smile", "zebra");
        try (Database db = Database.open(dir); TableWriter w = db.append("t")) {
            w.write(batch(schema, more));
            w.commit();
        }
        try (Database db = Database.open(dir)) {
            Column c = db.table("t").column("w");
            List<String> all = new ArrayList<>(WORDS);
            all.addAll(more);
            for (int r = 0; r < all.size(); r++) {
                assertEquals(all.get(r), c.getString(r));
            }
            assertEquals(8, c.dictionary().size());
            byte[] file = Files.readAllBytes(dir.resolve(dictionaryEntry(readManifest(dir)).get("path").asText()));
            assertEquals(DictionaryFile.MAGIC, MemorySegment.ofArray(file).get(DictionaryFile.INT, 0));
        }
    }

    private static RowBatch batch(TableSchema schema, List<String> words) {
        RowBatch b = new RowBatch(schema, words.size());
        for (String s : words) {
            b.column(0).appendString(s);
        }
        return b;
    }

    /** Replaces the column's dictionary file by the old form of the same strings, and its manifest entry with it. */
    private static void rewriteDictionaryInOldForm(Path dir, String[] sorted) throws Exception {
        JsonNode manifest = readManifest(dir);
        ObjectNode entry = dictionaryEntry(manifest);
        byte[] old = OldDictionaryForm.encode(sorted);
        Files.write(dir.resolve(entry.get("path").asText()), old);
        entry.put("bytes", old.length);
        entry.put("crc32c", Long.toHexString(Database.crc32c(MemorySegment.ofArray(old))));
        Files.writeString(dir.resolve(Manifest.FILE_NAME), new ObjectMapper().writeValueAsString(manifest));
    }

    private static JsonNode readManifest(Path dir) throws Exception {
        return new ObjectMapper().readTree(dir.resolve(Manifest.FILE_NAME).toFile());
    }

    /** The one file entry of the manifest whose path names a dictionary. */
    private static ObjectNode dictionaryEntry(JsonNode node) {
        if (node.isObject() && node.has("path") && node.get("path").asText().endsWith(".dict")) {
            return (ObjectNode) node;
        }
        for (JsonNode child : node) {
            ObjectNode found = dictionaryEntry(child);
            if (found != null) {
                return found;
            }
        }
        return null;
    }
}
