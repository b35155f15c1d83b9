package io.tessera.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/** The database manifest: every table's schema, row count, generation, files, checksums and statistics. */
record Manifest(List<TableEntry> tables) {

    static final int FORMAT = 1;
    static final String FILE_NAME = "manifest.json";

    record TableEntry(TableSchema schema, long rows, int generation, List<ColumnEntry> columns) {
    }

    /** validity and dictionary are null where the column has none. */
    record ColumnEntry(FileEntry data, FileEntry validity, FileEntry dictionary, ColumnStats stats) {
    }

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    Manifest {
        tables = List.copyOf(tables);
    }

    TableEntry table(String name) {
        for (TableEntry t : tables) {
            if (t.schema().name().equalsIgnoreCase(name)) {
                return t;
            }
        }
        return null;
    }

    /** A copy with {@code entry} replacing the table of the same name (or added), or the table removed when entry is null. */
    Manifest with(String name, TableEntry entry) {
        List<TableEntry> out = new ArrayList<>();
        boolean replaced = false;
        for (TableEntry t : tables) {
            if (t.schema().name().equalsIgnoreCase(name)) {
                if (entry != null) {
                    out.add(entry);
                }
                replaced = true;
            } else {
                out.add(t);
            }
        }
        if (!replaced && entry != null) {
            out.add(entry);
        }
        return new Manifest(out);
    }

    byte[] toJson() {
        ObjectNode root = JSON.createObjectNode();
        root.put("format", FORMAT);
        ArrayNode ts = root.putArray("tables");
        for (TableEntry t : tables) {
            ObjectNode tn = ts.addObject();
            tn.put("name", t.schema().name());
            tn.put("rows", t.rows());
            tn.put("generation", t.generation());
            ArrayNode cs = tn.putArray("columns");
            for (int i = 0; i < t.columns().size(); i++) {
                ColumnSchema s = t.schema().columns().get(i);
                ColumnEntry c = t.columns().get(i);
                ObjectNode cn = cs.addObject();
                cn.put("name", s.name());
                cn.put("type", s.type().toString());
                cn.put("nullable", s.nullable());
                cn.set("data", file(c.data()));
                if (c.validity() != null) {
                    cn.set("validity", file(c.validity()));
                }
                if (c.dictionary() != null) {
                    cn.set("dictionary", file(c.dictionary()));
                }
                ObjectNode st = cn.putObject("stats");
                st.put("nulls", c.stats().nullCount());
                st.put("distinct", c.stats().distinctEstimate());
                putRaw(st, "min", c.stats().min());
                putRaw(st, "max", c.stats().max());
                st.put("unique", c.stats().unique());
            }
        }
        try {
            return JSON.writeValueAsBytes(root);
        } catch (java.io.IOException e) {
            throw new StorageException("cannot encode the manifest", e);
        }
    }

    private static ObjectNode file(FileEntry f) {
        ObjectNode n = JSON.createObjectNode();
        n.put("path", f.path());
        n.put("bytes", f.bytes());
        n.put("crc32c", Long.toHexString(f.crc32c()));
        return n;
    }

    private static void putRaw(ObjectNode n, String key, Object v) {
        if (v == null) {
            n.putNull(key);
        } else if (v instanceof Double d) {
            n.put(key, d);
        } else if (v instanceof Number num) {
            n.put(key, num.longValue());
        } else {
            n.put(key, v.toString());
        }
    }

    static Manifest parse(byte[] bytes, String fileName) {
        try {
            JsonNode root = JSON.readTree(bytes);
            if (root == null || !root.has("format")) {
                throw new StorageException(fileName + " is not a Tessera manifest");
            }
            int format = root.get("format").asInt();
            if (format != FORMAT) {
                throw new StorageException(fileName + " has format " + format + ", this Tessera reads " + FORMAT);
            }
            List<TableEntry> tables = new ArrayList<>();
            for (JsonNode tn : root.get("tables")) {
                List<ColumnSchema> schemas = new ArrayList<>();
                List<ColumnEntry> cols = new ArrayList<>();
                for (JsonNode cn : tn.get("columns")) {
                    DataType type = DataType.parse(cn.get("type").asText());
                    schemas.add(new ColumnSchema(cn.get("name").asText(), type, cn.get("nullable").asBoolean()));
                    JsonNode st = cn.get("stats");
                    ColumnStats stats = new ColumnStats(st.get("nulls").asLong(), st.get("distinct").asLong(),
                            raw(type, st.get("min")), raw(type, st.get("max")),
                            st.has("unique") && st.get("unique").asBoolean());
                    cols.add(new ColumnEntry(file(cn.get("data")), file(cn.get("validity")),
                            file(cn.get("dictionary")), stats));
                }
                tables.add(new TableEntry(new TableSchema(tn.get("name").asText(), schemas), tn.get("rows").asLong(),
                        tn.get("generation").asInt(), cols));
            }
            return new Manifest(tables);
        } catch (java.io.IOException | NullPointerException | IllegalArgumentException e) {
            throw new StorageException(fileName + " is damaged: " + e.getMessage(), e);
        }
    }

    private static FileEntry file(JsonNode n) {
        if (n == null || n.isNull()) {
            return null;
        }
        return new FileEntry(n.get("path").asText(), n.get("bytes").asLong(),
                Long.parseUnsignedLong(n.get("crc32c").asText(), 16));
    }

    private static Object raw(DataType type, JsonNode n) {
        if (n == null || n.isNull()) {
            return null;
        }
        return switch (type.kind()) {
            case DOUBLE -> n.asDouble();
            case VARCHAR -> n.asText();
            default -> n.asLong();
        };
    }
}
