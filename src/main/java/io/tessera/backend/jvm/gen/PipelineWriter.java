package io.tessera.backend.jvm.gen;

import io.tessera.backend.ValueKind;
import io.tessera.backend.CodeNames;
import io.tessera.backend.GeneratedSource;
import io.tessera.backend.jvm.aggregate.AggSpec;
import io.tessera.backend.jvm.filter.VectorFilterEmitter;
import io.tessera.backend.lower.Scale;
import io.tessera.plan.Expr;
import io.tessera.plan.JoinKind;
import io.tessera.plan.Pipeline;
import io.tessera.plan.Slot;
import io.tessera.sql.SqlError;
import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;
import io.tessera.variant.Genome;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the operators of one pipeline write into as they are emitted: the generated class's parts (fields, init,
 * the loop body, the lines before and after the loop), the query's constants, the slots loaded so far, the probes'
 * row variables and the sink's buffer and table layout that the executor reads from {@link EmittedPipeline}. It is
 * the {@link ExprGen.Scope} of the pipeline's expressions. {@link PipelineEmitter} drives the operators;
 * {@link PipelineClass} assembles the class.
 */
public final class PipelineWriter implements ExprGen.Scope {

    final Pipeline p;

    /** The pipeline being emitted. */
    public Pipeline pipeline() {
        return p;
    }
    /** How comments name the plan's columns and constants (never by their text). */
    public final CodeNames codeNames;
    public final Genome g;
    final String className;
    final StringBuilder fields = new StringBuilder();
    /** init()'s first lines: the constants' fields, read from the array bound at run time. */
    final StringBuilder constantInit = new StringBuilder();
    /**
     * Each method's first lines: the constants and the fields init() sets, copied into final locals of the same
     * names. The JIT then holds them loop-invariant: a field is read again after every call in the loop, and a
     * column's bounds check on a segment read from a field stays in the loop (on 16 cores about a fifth of TPC-H Q3's
     * and Q5's scan samples were MemorySegment bounds and alignment checks).
     */
    public final StringBuilder fieldLocals = new StringBuilder();
    /** The query's constants, in the order of their fields: what {@code k} holds when init runs. */
    final List<Object> constants = new ArrayList<>();
    final StringBuilder init = new StringBuilder();
    final StringBuilder body = new StringBuilder();
    public final StringBuilder before = new StringBuilder();
    public final StringBuilder after = new StringBuilder();
    /** The second method of a partitioned aggregation (aggregates one partition's buffered rows). */
    public final StringBuilder partitionMethod = new StringBuilder();
    /** Where {@link #line} writes: the loop body, or the partition method. */
    public StringBuilder target = body;
    /** The vectorized filter whose selected rows the loop visits, or null (every row). */
    VectorFilterEmitter vectorFilter;
    /** Whether the code counts rows out of its operations ({@link RowCounters}): run() then takes their slots. */
    boolean rowCounters;
    private final Map<String, JExpr> loaded = new HashMap<>();
    private final Map<String, String> fieldByInit = new LinkedHashMap<>();
    private final Map<String, String> dictFields = new HashMap<>();
    /** The variable holding each probed join's build row, by join id. */
    public final Map<Integer, String> joinRow = new HashMap<>();
    public final Map<Integer, JoinKind> joinKind = new HashMap<>();
    /** Closing lines of the loops that probes opened (one build row after another), innermost last. */
    public final List<String> closers = new ArrayList<>();
    public final ExprGen gen = new ExprGen(this);
    /** The local that counts passes of loops inside a source row, for {@link #cancelCheck}; null until one asks. */
    private String visits;
    public int indent = 2;
    private int names;

    // the sink's layout, as EmittedPipeline reports it to the executor
    public ValueKind[] bufferKinds;
    public String[] bufferDicts;
    public AggSpec[] aggSpecs;
    public ValueKind[] keyKinds;
    public String[] keyDicts;
    public boolean dense;
    public long[] denseMins;
    public long[] denseSizes;
    public int keyWidth;
    public boolean nullableKeys;

    /** Whether an operation after probe {@code op}, or the sink, reads a payload column of its join table. */
    public boolean readsPayloadAfter(io.tessera.plan.Operation.Probe op) {
        for (int k = 0; k < p.operations().size(); k++) {
            if (p.operations().get(k) == op) {
                return io.tessera.plan.PipelineAnalysis.readsPayloadAfter(p, k, op.joinId());
            }
        }
        return true;
    }

    PipelineWriter(Pipeline p, Genome g) {
        this.p = p;
        this.g = g;
        this.className = "Pipeline" + p.id();
        this.codeNames = new CodeNames(p);
    }

    /** The genome's value of a dimension, or {@code absent} when the dimension does not apply to this pipeline. */
    public String choice(String dimension, String absent) {
        return g.has(dimension) ? g.get(dimension) : absent;
    }

    /** One line of code at the current indentation, into the loop body (or the partition method). */
    public void line(String s) {
        target.append("    ".repeat(indent)).append(s).append('\n');
    }

    /** A comment line; its text goes through the one sanitizer, as every comment with user text in it does. */
    public void comment(String s) {
        line("// " + GeneratedSource.comment(s));
    }

    /** A fresh name: the hint and a number. */
    public String name(String hint) {
        return hint + (names++);
    }

    /**
     * A statement for the body of a loop that may run long inside one source row (a probe over a chain of build
     * rows, a nested loop over a whole build side): every 4,096 passes of all such loops of a morsel it checks the
     * query's cancel, so a cancel acts within a morsel, not only between morsels.
     */
    public String cancelCheck() {
        String cancel = field("io.tessera.api.QueryCancel", "ctx.cancel()", "cancel");
        if (visits == null) {
            visits = name("visits");
            before.append("        int ").append(visits)
                    .append(" = 0; // passes of loops inside a row, for the cancel check\n");
        }
        return "if ((++" + visits + " & 4095) == 0) io.tessera.api.QueryCancel.check(" + cancel + ");";
    }

    @Override
    public String field(String javaType, String initExpression, String hint) {
        String key = javaType + "|" + initExpression;
        String f = fieldByInit.get(key);
        if (f == null) {
            f = name(hint);
            fieldByInit.put(key, f);
            fields.append("    private ").append(javaType).append(' ').append(f).append(";\n");
            init.append("        ").append(f).append(" = ").append(initExpression).append(";\n");
            fieldLocals.append("        final ").append(javaType).append(' ').append(f).append(" = this.").append(f).append(";\n");
        }
        return f;
    }

    @Override
    public String dictionary(String key) {
        return dictFields.computeIfAbsent(key, k -> field("io.tessera.storage.Dictionary",
                "ctx.dictionary(" + constantString(k) + ")", "dict"));
    }

    @Override
    public String constant(ValueKind kind, Object value) {
        int i = constants.size();
        String read = switch (kind) {
            case INT -> "((Number) k[" + i + "]).intValue()";
            case LONG -> "((Number) k[" + i + "]).longValue()";
            case DOUBLE -> "((Number) k[" + i + "]).doubleValue()";
            case BOOL -> "((Boolean) k[" + i + "]).booleanValue()";
            case STRING -> "(String) k[" + i + "]";
            case CODE -> throw new IllegalArgumentException("a code is no constant");
        };
        return constantField(JavaTypes.of(kind), read, value, "a constant");
    }

    @Override
    public String constantObject(String javaType, Object value) {
        return constantField(javaType, "(" + javaType + ") k[" + constants.size() + "]", value, "a constant set");
    }

    /** Constant {@code k<i>}: its value bound, its field read in init(), copied into a local of each method. */
    private String constantField(String javaType, String read, Object value, String comment) {
        String f = "k" + constants.size();
        constants.add(value);
        fields.append("    private ").append(javaType).append(' ').append(f).append(";  // ").append(comment).append('\n');
        constantInit.append("        ").append(f).append(" = ").append(read).append(";\n");
        fieldLocals.append("        final ").append(javaType).append(' ').append(f).append(" = this.").append(f).append(";\n");
        return f;
    }

    @Override
    public void statement(String s) {
        line(s);
    }

    @Override
    public String local(String hint) {
        return name(hint);
    }

    @Override
    public void open(String header) {
        line(header + " {");
        indent++;
    }

    @Override
    public void reopen(String header) {
        indent--;
        line("} " + header + " {");
        indent++;
    }

    @Override
    public void close() {
        indent--;
        line("}");
    }

    @Override
    public int mark() {
        return target.length();
    }

    @Override
    public String cut(int mark) {
        String s = target.substring(mark);
        target.setLength(mark);
        return s;
    }

    @Override
    public void paste(String statements) {
        for (String l : statements.split("\n")) {
            if (!l.isEmpty()) {
                target.append("    ").append(l).append('\n');
            }
        }
    }

    @Override
    public String constantString(String value) {
        int i = constants.size();
        constants.add(value);
        return "((String) k[" + i + "])";
    }

    /** Emits loads of every slot the expression uses that is not loaded yet. */
    public void load(Expr e) {
        if (e instanceof Expr.Ref r) {
            loadSlot(r.slot());
        } else if (e instanceof Expr.Call c) {
            for (Expr a : c.args()) {
                load(a);
            }
        }
    }

    /** Loads the slots of {@code e} other than join {@code j}'s payload (which a probe reads per build row). */
    public void loadExcept(Expr e, int j) {
        List<Slot> slots = new ArrayList<>();
        Expr.slots(e, slots);
        for (Slot s : slots) {
            if (s.joinId() != j) {
                loadSlot(s);
            }
        }
    }

    /** The slots loaded so far: what code inside a nested block may load and must forget when the block closes. */
    public Map<String, JExpr> loads() {
        return new HashMap<>(loaded);
    }

    /** Forgets the loads made since {@link #loads()} returned {@code saved}. */
    public void forgetLoadsSince(Map<String, JExpr> saved) {
        loaded.clear();
        loaded.putAll(saved);
    }

    private static String slotKey(Slot s) {
        return s.isSource() ? "s" + s.index() : "j" + s.joinId() + "_" + s.index();
    }

    private void loadSlot(Slot s) {
        String key = slotKey(s);
        if (loaded.containsKey(key)) {
            return;
        }
        ValueKind k = ValueKind.stored(s.type());
        String var = "v_" + key;
        String value;
        String isNull = "false";
        if (s.isSource()) {
            String seg = field("java.lang.foreign.MemorySegment", "ctx.column(" + s.index() + ").data()", "col");
            value = switch (k) {
                case INT, CODE -> seg + ".get(INT, i << 2)";
                case LONG -> seg + ".get(LONG, i << 3)";
                case DOUBLE -> seg + ".get(DOUBLE, i << 3)";
                case BOOL -> seg + ".get(BYTE, i) != 0";
                default -> throw new IllegalStateException();
            };
            if (s.nullable()) {
                String valid = field("java.lang.foreign.MemorySegment", "ctx.column(" + s.index() + ").validity()", "valid");
                isNull = "(" + valid + " != null && (" + valid + ".get(LONG, (i >>> 6) << 3) & (1L << i)) == 0)";
            }
        } else {
            int j = s.joinId();
            String r = joinRow.get(j);
            String arr = switch (k) {
                case INT, CODE -> "ints";
                case LONG -> "longs";
                case DOUBLE -> "doubles";
                case BOOL -> "bytes";
                default -> throw new IllegalStateException();
            };
            String at = field(k == ValueKind.BOOL ? "byte[]" : JavaTypes.of(k) + "[]",
                    "ctx.joinTable(" + j + ").payload." + arr + "[" + s.index() + "]", "j" + j + "_p");
            String nb = field("long[]", "ctx.joinTable(" + j + ").payload.nulls[" + s.index() + "]", "j" + j + "_n");
            boolean left = joinKind.get(j) == JoinKind.LEFT;
            value = at + "[" + r + "]" + (k == ValueKind.BOOL ? " != 0" : "");
            if (left) {
                value = "(" + r + " < 0 ? " + ExprGen.zero(k) + " : " + value + ")";
            }
            isNull = "(" + nb + " != null && (" + nb + "[" + r + " >>> 6] & (1L << " + r + ")) != 0)";
            if (left) {
                isNull = "(" + r + " < 0 || " + isNull + ")";
            }
            if (!s.nullable()) {
                isNull = "false";
            }
        }
        line("final " + JavaTypes.of(k) + " " + var + " = " + value + ";");
        String nvar = "false";
        if (!isNull.equals("false")) {
            nvar = var + "_null";
            line("final boolean " + nvar + " = " + isNull + ";");
        }
        loaded.put(key, new JExpr(var, nvar, k, s.dictionaryKey()));
    }

    @Override
    public JExpr slot(Slot s) {
        loadSlot(s);
        return loaded.get(slotKey(s));
    }

    /** A key value as the long the hash tables use; CODE keys of another dictionary are mapped to the build's codes. */
    public String keyLong(JExpr x, DataType type, DataType common, String buildDict) {
        if (x.kind() == ValueKind.STRING) {
            throw new SqlError("unsupported: a join or group key computed as a string");
        }
        if (x.kind() == ValueKind.CODE && buildDict != null && !buildDict.equals(x.dict())) {
            String map = field("int[]", "io.tessera.backend.jvm.lib.Runtime.codeMap(" + dictionary(x.dict()) + ", "
                    + dictionary(buildDict) + ")", "codemap");
            return "(long) " + map + "[" + x.v() + "]";
        }
        if (common != null && common.kind() == TypeKind.DECIMAL && type.kind() != TypeKind.DOUBLE) {
            int s = Scale.shift(type, common.scale());
            return s == 0 ? "(long) " + x.v() : "io.tessera.backend.jvm.lib.Runtime.rescale((long) " + x.v() + ", " + s + ")";
        }
        if (common != null && common.kind() == TypeKind.DOUBLE) {
            return "io.tessera.backend.jvm.lib.Hashing.doubleKey(" + gen.convert(x, type, DataType.DOUBLE).v() + ")";
        }
        return switch (x.kind()) {
            case DOUBLE -> "io.tessera.backend.jvm.lib.Hashing.doubleKey(" + x.v() + ")";
            case BOOL -> "(" + x.v() + " ? 1L : 0L)";
            default -> "(long) " + x.v();
        };
    }

    /** The row buffer's columns: one per output, of its kind, then {@code extraLongs} LONG columns (a build's keys). */
    public void bufferLayout(List<Expr> outs, int extraLongs) {
        bufferKinds = new ValueKind[outs.size() + extraLongs];
        bufferDicts = new String[outs.size() + extraLongs];
        for (int c = 0; c < outs.size(); c++) {
            Expr e = outs.get(c);
            load(e);
            JExpr x = gen.gen(e);
            bufferKinds[c] = x.kind();
            bufferDicts[c] = x.dict();
        }
        for (int c = outs.size(); c < bufferKinds.length; c++) {
            bufferKinds[c] = ValueKind.LONG;
        }
    }

    /** Stores a value into column {@code c}, row {@code w}, of row buffer {@code buf}, marking a NULL. */
    public void store(String buf, int c, JExpr x, String w) {
        String arr = switch (x.kind()) {
            case INT, CODE -> "ints";
            case LONG -> "longs";
            case DOUBLE -> "doubles";
            case BOOL -> "bytes";
            case STRING -> "strings";
        };
        String v = x.kind() == ValueKind.BOOL ? "(byte) (" + x.v() + " ? 1 : 0)" : x.v();
        line(buf + "." + arr + "[" + c + "][" + w + "] = " + v + ";");
        if (x.nullable()) {
            line("if (" + x.n() + ") " + buf + ".setNull(" + c + ", " + w + ");");
        }
    }
}
