package io.tessera.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/**
 * The database manifest: every table's schema, row count, generation, files, checksums and statistics; the
 * last generation number handed out (numbers are never reused, so a generation's file names are never written
 * twice); and the retired generations whose files a writer could not delete yet because a reader still needed
 * them; the views, each a query's text that the SQL front end expands where the view is named; the macros (CREATE
 * MACRO), expanded where they are called (a table's indexes are kept with its keys, absent where it has none); and the sequences, each with its state (macros and sequences are absent in
 * a manifest written before they were kept: it has none). Every file path
 * is relative to the database directory and lies in its table's folder: {@link #parse} refuses any other.
 */
record Manifest(List<TableEntry> tables, int lastGeneration, List<Retired> retired, List<View> views,
                List<Macro> macros, List<Sequence> sequences) {

    static final int FORMAT = 1;
    static final String FILE_NAME = "manifest.json";

    record TableEntry(TableSchema schema, long rows, int generation, List<ColumnEntry> columns) {
    }

    /** validity and dictionary are null where the column has none. */
    record ColumnEntry(FileEntry data, FileEntry validity, FileEntry dictionary, ColumnStats stats) {
    }

    /** A replaced or dropped table version whose files are deleted once no reader holds its generation. */
    record Retired(String table, int generation, List<String> files) {
        Retired {
            files = List.copyOf(files);
        }
    }

    /**
     * The manifest's reader and writer. A VARCHAR column's min and max are stored whole, and a value may be as long
     * as an import's record (64 MiB): Jackson's default limit of 20 million characters a string would leave such a
     * database unreadable, so the manifest's strings have none.
     */
    private static final ObjectMapper JSON = new ObjectMapper(com.fasterxml.jackson.core.JsonFactory.builder()
            .streamReadConstraints(com.fasterxml.jackson.core.StreamReadConstraints.builder()
                    .maxStringLength(Integer.MAX_VALUE).build())
            .build()).enable(SerializationFeature.INDENT_OUTPUT);

    Manifest {
        tables = List.copyOf(tables);
        retired = List.copyOf(retired);
        views = List.copyOf(views);
        macros = List.copyOf(macros);
        sequences = List.copyOf(sequences);
        for (TableEntry t : tables) {
            lastGeneration = Math.max(lastGeneration, t.generation());
        }
        for (Retired r : retired) {
            lastGeneration = Math.max(lastGeneration, r.generation());
        }
    }

    Manifest(List<TableEntry> tables) {
        this(tables, 0, List.of(), List.of(), List.of(), List.of());
    }

    Manifest(List<TableEntry> tables, int lastGeneration, List<Retired> retired) {
        this(tables, lastGeneration, retired, List.of(), List.of(), List.of());
    }

    /** A copy with {@code view} replacing the view of the same name (or added), or that view removed when null. */
    Manifest withView(String name, View view) {
        List<View> out = new ArrayList<>();
        boolean replaced = false;
        for (View v : views) {
            if (v.name().equalsIgnoreCase(name)) {
                if (view != null) {
                    out.add(view);
                }
                replaced = true;
            } else {
                out.add(v);
            }
        }
        if (!replaced && view != null) {
            out.add(view);
        }
        return new Manifest(tables, lastGeneration, retired, out, macros, sequences);
    }

    /** A copy with {@code macro} replacing the macro of the same name (or added), or that macro removed when null. */
    Manifest withMacro(String name, Macro macro) {
        List<Macro> out = new ArrayList<>();
        for (Macro m : macros) {
            if (!m.name().equalsIgnoreCase(name)) {
                out.add(m);
            }
        }
        if (macro != null) {
            out.add(macro);
        }
        return new Manifest(tables, lastGeneration, retired, views, out, sequences);
    }

    Macro macro(String name) {
        for (Macro m : macros) {
            if (m.name().equalsIgnoreCase(name)) {
                return m;
            }
        }
        return null;
    }

    View view(String name) {
        for (View v : views) {
            if (v.name().equalsIgnoreCase(name)) {
                return v;
            }
        }
        return null;
    }

    /** A copy with {@code sequence} replacing the sequence of the same name (or added), or that one removed when null. */
    Manifest withSequence(String name, Sequence sequence) {
        List<Sequence> out = new ArrayList<>();
        boolean replaced = false;
        for (Sequence q : sequences) {
            if (q.name().equalsIgnoreCase(name)) {
                if (sequence != null) {
                    out.add(sequence);
                }
                replaced = true;
            } else {
                out.add(q);
            }
        }
        if (!replaced && sequence != null) {
            out.add(sequence);
        }
        return new Manifest(tables, lastGeneration, retired, views, macros, out);
    }

    Sequence sequence(String name) {
        for (Sequence q : sequences) {
            if (q.name().equalsIgnoreCase(name)) {
                return q;
            }
        }
        return null;
    }

    /** Every file a table version names, as paths relative to the database directory. */
    static List<String> files(TableEntry t) {
        List<String> out = new ArrayList<>();
        for (ColumnEntry c : t.columns()) {
            for (FileEntry f : new FileEntry[] {c.data(), c.validity(), c.dictionary()}) {
                if (f != null) {
                    out.add(f.path());
                }
            }
        }
        return out;
    }

    /**
     * A copy where table version {@code cur} is followed by version {@code generation} whose column {@code i} is the
     * stored column {@code from[i]} under {@code schema}'s name, nullability and keys (same type), its files kept;
     * the files of the columns left out retired (ALTER TABLE without rewriting data).
     */
    Manifest withColumnsOf(TableEntry cur, TableSchema schema, int[] from, int generation) {
        if (!cur.schema().name().equalsIgnoreCase(schema.name()) || from.length != schema.columns().size()) {
            throw new IllegalArgumentException("the new columns of table " + cur.schema().name()
                    + " do not match its schema");
        }
        List<ColumnEntry> columns = new ArrayList<>();
        java.util.Set<Integer> kept = new java.util.HashSet<>();
        for (int i = 0; i < from.length; i++) {
            if (!cur.schema().columns().get(from[i]).type().equals(schema.columns().get(i).type())) {
                throw new IllegalArgumentException("column " + schema.columns().get(i).name()
                        + " changes its type: its data must be rewritten");
            }
            columns.add(cur.columns().get(from[i]));
            kept.add(from[i]);
        }
        List<String> dropped = new ArrayList<>();
        for (int c = 0; c < cur.columns().size(); c++) {
            if (!kept.contains(c)) {
                dropped.addAll(files(new TableEntry(cur.schema(), cur.rows(), cur.generation(),
                        List.of(cur.columns().get(c)))));
            }
        }
        return with(cur.schema().name(), new TableEntry(schema, cur.rows(), generation, columns))
                .retiring(cur, dropped);
    }

    /** A copy where {@code old} (a table version being replaced or dropped; null: none) is retired. */
    Manifest retiring(TableEntry old) {
        return old == null ? this : retiring(old, files(old));
    }

    /**
     * A copy where {@code old} is retired with only {@code files} of its files to delete: the others stay, named by
     * the version that replaces it (an ALTER TABLE that changes the manifest alone).
     */
    Manifest retiring(TableEntry old, List<String> files) {
        List<Retired> r = new ArrayList<>(retired);
        r.add(new Retired(old.schema().name().toLowerCase(java.util.Locale.ROOT), old.generation(), files));
        return new Manifest(tables, lastGeneration, r, views, macros, sequences);
    }

    /** A copy without the retired generations in {@code collected}. */
    Manifest withoutRetired(java.util.Collection<Retired> collected) {
        List<Retired> r = new ArrayList<>(retired);
        r.removeAll(collected);
        return new Manifest(tables, lastGeneration, r, views, macros, sequences);
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
        return new Manifest(out, lastGeneration, retired, views, macros, sequences);
    }

    byte[] toJson() {
        ObjectNode root = JSON.createObjectNode();
        root.put("format", FORMAT);
        root.put("generation", lastGeneration);
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
                if (s.defaultValue() != null) {
                    cn.put("default", s.defaultValue()); // absent where none, as in a manifest written before
                }
                if (s.generated() != null) {
                    cn.put("generated", s.generated()); // likewise
                }
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
                if (c.stats().hasHistogram()) {
                    st.set("histogram", histogram(c.stats().histogram()));
                }
            }
            if (!t.schema().keys().isEmpty()) {
                // absent in a manifest written before keys were kept: such a table has none
                ArrayNode ks = tn.putArray("keys");
                for (TableKey k : t.schema().keys()) {
                    ObjectNode kn = ks.addObject();
                    kn.put("primary", k.primary());
                    ArrayNode kc = kn.putArray("columns");
                    k.columns().forEach(kc::add);
                }
            }
            if (!t.schema().checks().isEmpty()) {
                // absent in a manifest written before CHECK constraints were kept: such a table has none
                ArrayNode checks = tn.putArray("checks");
                for (CheckConstraint c : t.schema().checks()) {
                    ObjectNode ck = checks.addObject();
                    if (c.name() != null) {
                        ck.put("name", c.name());
                    }
                    ck.put("expression", c.expression());
                    ArrayNode cc = ck.putArray("columns");
                    c.columns().forEach(cc::add);
                }
            }
            if (!t.schema().foreignKeys().isEmpty()) {
                // absent in a manifest written before FOREIGN KEY constraints were kept: such a table has none
                ArrayNode fks = tn.putArray("foreign_keys");
                for (ForeignKey f : t.schema().foreignKeys()) {
                    ObjectNode fn = fks.addObject();
                    f.columns().forEach(fn.putArray("columns")::add);
                    fn.put("parent", f.parent());
                    f.referenced().forEach(fn.putArray("referenced")::add);
                }
            }
            if (!t.schema().indexes().isEmpty()) {
                // absent in a manifest written before indexes were kept: such a table has none
                ArrayNode xs = tn.putArray("indexes");
                for (TableIndex x : t.schema().indexes()) {
                    ObjectNode xn = xs.addObject();
                    xn.put("name", x.name());
                    x.columns().forEach(xn.putArray("columns")::add);
                    xn.put("unique", x.unique());
                    if (x.method() != null) {
                        xn.put("method", x.method());
                    }
                }
            }
        }
        if (!views.isEmpty()) {
            ArrayNode vs = root.putArray("views");
            for (View v : views) {
                ObjectNode vn = vs.addObject();
                vn.put("name", v.name());
                vn.put("query", v.query());
                ArrayNode cs = vn.putArray("columns");
                v.columns().forEach(cs::add);
            }
        }
        if (!macros.isEmpty()) {
            // absent in a manifest written before macros were kept: such a database has none
            ArrayNode ms = root.putArray("macros");
            for (Macro m : macros) {
                ObjectNode mn = ms.addObject();
                mn.put("name", m.name());
                ArrayNode ps = mn.putArray("parameters");
                for (Macro.Parameter p : m.parameters()) {
                    ObjectNode pn = ps.addObject();
                    pn.put("name", p.name());
                    if (p.defaultValue() != null) {
                        pn.put("default", p.defaultValue());
                    }
                }
                mn.put("body", m.body());
                mn.put("table", m.table());
            }
        }
        if (!sequences.isEmpty()) {
            ArrayNode qs = root.putArray("sequences");
            for (Sequence q : sequences) {
                ObjectNode qn = qs.addObject();
                qn.put("name", q.name());
                qn.put("increment", q.increment());
                qn.put("min", q.minValue());
                qn.put("max", q.maxValue());
                qn.put("start", q.start());
                qn.put("cycle", q.cycle());
                qn.put("counter", q.counter());
                qn.put("last", q.lastValue());
                qn.put("used", q.used());
            }
        }
        if (!retired.isEmpty()) {
            ArrayNode rs = root.putArray("retired");
            for (Retired r : retired) {
                ObjectNode rn = rs.addObject();
                rn.put("table", r.table());
                rn.put("generation", r.generation());
                ArrayNode fs = rn.putArray("files");
                r.files().forEach(fs::add);
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

    /**
     * {@code {"lower": v, "exact": b, "buckets": [[upper, rows, distinct], ...], "mcv": [[value, rows], ...]}}; a
     * manifest without it (written before histograms were kept) reads as an empty histogram.
     */
    private static ObjectNode histogram(Histogram h) {
        ObjectNode n = JSON.createObjectNode();
        putRaw(n, "lower", h.lower());
        n.put("exact", h.exact());
        ArrayNode bs = n.putArray("buckets");
        for (Histogram.Bucket b : h.buckets()) {
            ArrayNode a = bs.addArray();
            addRaw(a, b.upper());
            a.add(b.rows());
            a.add(b.distinct());
        }
        ArrayNode ms = n.putArray("mcv");
        for (Histogram.MostCommon m : h.mostCommon()) {
            ArrayNode a = ms.addArray();
            addRaw(a, m.value());
            a.add(m.rows());
        }
        return n;
    }

    private static Histogram histogram(DataType type, JsonNode n) {
        if (n == null || n.isNull()) {
            return Histogram.EMPTY;
        }
        List<Histogram.Bucket> buckets = new ArrayList<>();
        for (JsonNode b : n.get("buckets")) {
            buckets.add(new Histogram.Bucket(raw(type, b.get(0)), b.get(1).asLong(), b.get(2).asLong()));
        }
        List<Histogram.MostCommon> mostCommon = new ArrayList<>();
        for (JsonNode m : n.get("mcv")) {
            mostCommon.add(new Histogram.MostCommon(raw(type, m.get(0)), m.get(1).asLong()));
        }
        return new Histogram(raw(type, n.get("lower")), buckets, mostCommon, n.get("exact").asBoolean());
    }

    private static void addRaw(ArrayNode a, Object v) {
        if (v instanceof Double d) {
            a.add(d);
        } else if (v instanceof Number num) {
            a.add(num.longValue());
        } else {
            a.add(v.toString());
        }
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
                String table = tn.get("name").asText();
                for (JsonNode cn : tn.get("columns")) {
                    DataType type = DataType.parse(cn.get("type").asText());
                    schemas.add(new ColumnSchema(cn.get("name").asText(), type, cn.get("nullable").asBoolean(),
                            cn.has("default") ? cn.get("default").asText() : null,
                            cn.has("generated") ? cn.get("generated").asText() : null));
                    JsonNode st = cn.get("stats");
                    ColumnStats stats = new ColumnStats(st.get("nulls").asLong(), st.get("distinct").asLong(),
                            raw(type, st.get("min")), raw(type, st.get("max")),
                            st.has("unique") && st.get("unique").asBoolean(), histogram(type, st.get("histogram")));
                    cols.add(new ColumnEntry(file(cn.get("data"), table, fileName),
                            file(cn.get("validity"), table, fileName), file(cn.get("dictionary"), table, fileName),
                            stats));
                }
                List<TableKey> keys = new ArrayList<>();
                if (tn.has("keys")) {
                    for (JsonNode kn : tn.get("keys")) {
                        List<String> keyColumns = new ArrayList<>();
                        kn.get("columns").forEach(c -> keyColumns.add(c.asText()));
                        keys.add(new TableKey(keyColumns, kn.get("primary").asBoolean()));
                    }
                }
                List<CheckConstraint> checks = new ArrayList<>();
                if (tn.has("checks")) {
                    for (JsonNode ck : tn.get("checks")) {
                        List<String> checkColumns = new ArrayList<>();
                        ck.get("columns").forEach(c -> checkColumns.add(c.asText()));
                        checks.add(new CheckConstraint(ck.has("name") ? ck.get("name").asText() : null,
                                ck.get("expression").asText(), checkColumns));
                    }
                }
                List<ForeignKey> foreignKeys = new ArrayList<>();
                if (tn.has("foreign_keys")) {
                    for (JsonNode fn : tn.get("foreign_keys")) {
                        List<String> fkColumns = new ArrayList<>();
                        fn.get("columns").forEach(c -> fkColumns.add(c.asText()));
                        List<String> referenced = new ArrayList<>();
                        fn.get("referenced").forEach(c -> referenced.add(c.asText()));
                        foreignKeys.add(new ForeignKey(fkColumns, fn.get("parent").asText(), referenced));
                    }
                }
                List<TableIndex> indexes = new ArrayList<>();
                if (tn.has("indexes")) {
                    for (JsonNode xn : tn.get("indexes")) {
                        List<String> indexColumns = new ArrayList<>();
                        xn.get("columns").forEach(c -> indexColumns.add(c.asText()));
                        indexes.add(new TableIndex(xn.get("name").asText(), indexColumns,
                                xn.get("unique").asBoolean(), xn.has("method") ? xn.get("method").asText() : null));
                    }
                }
                tables.add(new TableEntry(new TableSchema(table, schemas, keys, checks, foreignKeys, indexes),
                        tn.get("rows").asLong(),
                        tn.get("generation").asInt(), cols));
            }
            List<Retired> retired = new ArrayList<>();
            if (root.has("retired")) {
                for (JsonNode rn : root.get("retired")) {
                    String table = rn.get("table").asText();
                    TableSchema.checkName(table, "table");
                    List<String> files = new ArrayList<>();
                    for (JsonNode fn : rn.get("files")) {
                        files.add(checkPath(fn.asText(), table, fileName));
                    }
                    retired.add(new Retired(table.toLowerCase(java.util.Locale.ROOT), rn.get("generation").asInt(),
                            files));
                }
            }
            List<View> views = new ArrayList<>();
            if (root.has("views")) {
                for (JsonNode vn : root.get("views")) {
                    List<String> columns = new ArrayList<>();
                    for (JsonNode cn : vn.get("columns")) {
                        columns.add(cn.asText());
                    }
                    views.add(new View(vn.get("name").asText(), vn.get("query").asText(), columns));
                }
            }
            List<Macro> macros = new ArrayList<>();
            if (root.has("macros")) {
                for (JsonNode mn : root.get("macros")) {
                    List<Macro.Parameter> parameters = new ArrayList<>();
                    for (JsonNode pn : mn.get("parameters")) {
                        parameters.add(new Macro.Parameter(pn.get("name").asText(),
                                pn.has("default") ? pn.get("default").asText() : null));
                    }
                    macros.add(new Macro(mn.get("name").asText(), parameters, mn.get("body").asText(),
                            mn.get("table").asBoolean()));
                }
            }
            List<Sequence> sequences = new ArrayList<>();
            if (root.has("sequences")) {
                for (JsonNode qn : root.get("sequences")) {
                    sequences.add(new Sequence(qn.get("name").asText(), qn.get("increment").asLong(),
                            qn.get("min").asLong(), qn.get("max").asLong(), qn.get("start").asLong(),
                            qn.get("cycle").asBoolean(), qn.get("counter").asLong(), qn.get("last").asLong(),
                            qn.get("used").asBoolean()));
                }
            }
            return new Manifest(tables, root.has("generation") ? root.get("generation").asInt() : 0, retired, views,
                    macros, sequences);
        } catch (java.io.IOException | NullPointerException | IllegalArgumentException e) {
            throw new StorageException(fileName + " is damaged: " + e.getMessage(), e);
        }
    }

    private static FileEntry file(JsonNode n, String table, String fileName) {
        if (n == null || n.isNull()) {
            return null;
        }
        return new FileEntry(checkPath(n.get("path").asText(), table, fileName), n.get("bytes").asLong(),
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

    /**
     * A file path of table {@code table} as a manifest may name it: relative, normalized, {@code folder/name}
     * where folder is the table's folder. Anything else (absolute, {@code ..}, another folder) is refused, so a
     * manifest can never make Tessera read or delete a file outside the database.
     */
    static String checkPath(String path, String table, String fileName) {
        String folder = table.toLowerCase(java.util.Locale.ROOT);
        int slash = path.indexOf('/');
        String name = slash < 0 ? "" : path.substring(slash + 1);
        boolean ok = slash > 0 && path.substring(0, slash).equals(folder) && !name.isEmpty()
                && name.indexOf('/') < 0 && name.indexOf('\\') < 0 && name.indexOf('\0') < 0
                && !name.equals(".") && !name.equals("..");
        if (!ok) {
            throw new StorageException(fileName + " is damaged: it names the file '" + path + "' for table " + table
                    + ", which is not a file of the table's folder " + folder + "/ inside the database");
        }
        return path;
    }
}
