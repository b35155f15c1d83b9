package io.tessera.backend.jvm;

import io.tessera.plan.AggCall;
import io.tessera.plan.AggFunction;
import io.tessera.plan.Expr;
import io.tessera.plan.JoinKind;
import io.tessera.plan.KeyRange;
import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.PipelineAnalysis;
import io.tessera.plan.Sink;
import io.tessera.plan.Slot;
import io.tessera.plan.ColumnInfo;
import io.tessera.backend.GeneratedSource;
import io.tessera.sql.SqlError;
import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;
import io.tessera.variant.Genome;
import io.tessera.variant.JvmDimensions;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Emits one pipeline as a Java class: a loop over the rows of one morsel whose body is the pipeline's
 * operations, fused, followed by its sink. Every choice with alternatives is read from the genome. The code
 * is indented and each part is commented with the IR operation it comes from.
 */
public final class PipelineEmitter implements ExprGen.Scope {

    static final String BRANCH = "branch";
    static final String PREDICATED = "predicated";
    static final String SCALAR = "scalar";
    static final String VECTOR = "vector";
    static final String WRITTEN = "written";
    static final String SELECTIVITY = "selectivity";

    private final Pipeline p;
    private final Genome g;
    private final String className;
    private final StringBuilder fields = new StringBuilder();
    /** init()'s first lines: the constants' fields, read from the array bound at run time. */
    private final StringBuilder constantInit = new StringBuilder();
    /** Each method's first lines: the constants copied into locals of the same names (loop-invariant for the JIT). */
    private final StringBuilder constantLocals = new StringBuilder();
    /** The query's constants, in the order of their fields: what {@code k} holds when init runs. */
    private final List<Object> constants = new ArrayList<>();
    private final StringBuilder init = new StringBuilder();
    private final StringBuilder body = new StringBuilder();
    private final StringBuilder before = new StringBuilder();
    private final StringBuilder after = new StringBuilder();
    /** The second method of a partitioned aggregation (aggregates one partition's buffered rows). */
    private final StringBuilder partitionMethod = new StringBuilder();
    /** Where {@link #line} writes: the loop body, or the partition method. */
    private StringBuilder target = body;
    /** The field of the vectorized filter whose selected rows the loop visits, or null (every row). */
    private String selection;
    private String selectionText;
    private final Map<String, JExpr> loaded = new HashMap<>();
    private final Map<String, String> fieldByInit = new LinkedHashMap<>();
    private final Map<String, String> dictFields = new HashMap<>();
    private final Map<Integer, String> joinRow = new HashMap<>();
    private final Map<Integer, JoinKind> joinKind = new HashMap<>();
    /** Closing lines of the loops that probes opened (one build row after another), innermost last. */
    private final List<String> closers = new ArrayList<>();
    private final ExprGen gen = new ExprGen(this);
    private int indent = 2;
    private int names;
    private boolean boundSource;

    // sink metadata
    private JKind[] bufferKinds;
    private String[] bufferDicts;
    private AggSpec[] aggSpecs;
    private JKind[] keyKinds;
    private String[] keyDicts;
    private boolean dense;
    private long[] denseMins;
    private long[] denseSizes;
    private int keyWidth;
    private boolean nullableKeys;

    private PipelineEmitter(Pipeline p, Genome g) {
        this.p = p;
        this.g = g;
        this.className = "Pipeline" + p.id();
    }

    public static EmittedPipeline emit(Pipeline p, Genome g) {
        return new PipelineEmitter(p, g).emit();
    }

    private EmittedPipeline emit() {
        List<Operation> ops = p.operations();
        if (VECTOR.equals(choice(JvmDimensions.SIMD, SCALAR))) {
            List<PipelineAnalysis.ColumnComparison> terms = PipelineAnalysis.leadingColumnComparisons(ops);
            if (terms.isEmpty()) {
                throw new IllegalArgumentException("genome " + g + ": no filter of pipeline " + p.id() + " can be vectorized");
            }
            selection = vectorFilter(terms);
            ops = PipelineAnalysis.withoutLeadingColumnComparisons(ops);
            indent = 4;
        }
        if (SELECTIVITY.equals(choice(JvmDimensions.PROBE_ORDER, WRITTEN))) {
            ops = PipelineAnalysis.probesBySelectivity(ops);
        }
        boolean predicated = PREDICATED.equals(choice(JvmDimensions.PREDICATION, BRANCH));
        for (int i = 0; i < ops.size(); i++) {
            Operation op = ops.get(i);
            if (op instanceof Operation.Filter f) {
                int end = i;
                List<Expr> run = new ArrayList<>();
                while (end < ops.size() && ops.get(end) instanceof Operation.Filter ff) {
                    run.addAll(PipelineAnalysis.conjuncts(ff.condition()));
                    end++;
                }
                if (predicated && PipelineAnalysis.predicable(run)) {
                    filterPredicated(run);
                    i = end - 1;
                } else {
                    filter(f.condition());
                }
            } else {
                probe((Operation.Probe) op);
            }
        }
        sink(p.sink());
        return new EmittedPipeline(p, g, className, assemble(), List.copyOf(constants), bufferKinds, bufferDicts, aggSpecs,
                keyKinds, keyDicts, dense, denseMins, denseSizes, keyWidth, nullableKeys);
    }

    /** The genome's value of a dimension, or {@code absent} when the dimension does not apply to this pipeline. */
    private String choice(String dimension, String absent) {
        return g.has(dimension) ? g.get(dimension) : absent;
    }

    /**
     * A field holding the vectorized filter of these comparisons ({@link VectorFilter}); the rows it selects in a
     * morsel are the only ones the loop visits.
     */
    private String vectorFilter(List<PipelineAnalysis.ColumnComparison> terms) {
        StringBuilder sb = new StringBuilder("new io.tessera.backend.jvm.VectorFilter()");
        List<String> text = new ArrayList<>();
        vectorTerms.clear();
        for (PipelineAnalysis.ColumnComparison t : terms) {
            Slot s = t.column();
            String col = "ctx.column(" + s.index() + ").data()";
            String segment = field("java.lang.foreign.MemorySegment", col, "vcol");
            text.add(t.column().name() + " " + t.op() + " " + (t.string() != null ? "'" + t.string() + "'"
                    : s.type().kind() == TypeKind.DOUBLE ? t.doubleValue() : t.value()));
            switch (JKind.stored(s.type())) {
                case INT, LONG, DOUBLE -> {
                    JKind k = JKind.stored(s.type());
                    String bound = constant(k, k == JKind.DOUBLE ? (Object) t.doubleValue() : (Object) t.value());
                    String filter = switch (k) {
                        case INT -> ".ints(";
                        case LONG -> ".longs(";
                        default -> ".doubles(";
                    };
                    sb.append(filter).append(col).append(", ").append(VectorFilter.class.getName()).append('.')
                            .append(t.op()).append(", ").append(bound).append(")");
                    vectorTerms.add(new VectorTerm(text.getLast(), segment, k.name(), t.op().name(), bound));
                }
                case CODE -> {
                    // through the order-preserving dictionary, as ExprGen compares a code with a constant
                    String d = dictionary(s.dictionaryKey());
                    String lit = constantString(t.string());
                    String vf = VectorFilter.class.getName() + ".";
                    String[] opAndBound = switch (t.op()) {
                        case EQ -> new String[] {"EQ", d + ".code(" + lit + ")"};
                        case NE -> new String[] {"NE", d + ".code(" + lit + ")"};
                        case LT -> new String[] {"LT", d + ".lowerBound(" + lit + ")"};
                        case LE -> new String[] {"LT", d + ".upperBound(" + lit + ")"};
                        case GT -> new String[] {"GE", d + ".upperBound(" + lit + ")"};
                        default -> new String[] {"GE", d + ".lowerBound(" + lit + ")"};
                    };
                    sb.append(".ints(").append(col).append(", ").append(vf).append(opAndBound[0]).append(", ")
                            .append(opAndBound[1]).append(")");
                    vectorTerms.add(new VectorTerm(text.getLast(), segment, "INT", opAndBound[0],
                            field("int", opAndBound[1], "vbound")));
                }
                default -> throw new IllegalStateException("no vectorized comparison of " + s.type());
            }
        }
        selectionText = String.join(" and ", text);
        return field("io.tessera.backend.jvm.VectorFilter", sb.toString(), "vf");
    }

    /** One comparison of a vectorized filter: its text, the column's segment field, its kind, operator and bound. */
    private record VectorTerm(String text, String segment, String kind, String op, String bound) {
        String javaOp() {
            return switch (op) {
                case "EQ" -> "==";
                case "NE" -> "!=";
                case "LT" -> "<";
                case "LE" -> "<=";
                case "GT" -> ">";
                default -> ">=";
            };
        }

        /** The Vector API class of a kind's values. */
        static String vectorClass(String kind) {
            return switch (kind) {
                case "INT" -> "IntVector";
                case "LONG" -> "LongVector";
                default -> "DoubleVector";
            };
        }

        /** log2 of the bytes of one value: a row's offset in its column is {@code row << shift}. */
        String shift() {
            return kind.equals("INT") ? "2" : "3";
        }
    }

    private final List<VectorTerm> vectorTerms = new ArrayList<>();

    /**
     * The vectorized filter's rows of a morsel, compared in this query's own class: the JIT compiles and profiles
     * each query's compares apart, with the operator a constant. (Through the shared {@link VectorFilter}, whose
     * virtual call and operator switch every query's filters went through, Q1.2's vector filter ran 3x slower in a
     * process that had run Q1.1 first.) Columns on the heap (intermediate relations) go through the shared filter.
     */
    private String vectorSelectMethod() {
        StringBuilder m = new StringBuilder();
        m.append("\n    // FILTER (vectorized) ").append(GeneratedSource.comment(selectionText)).append(": one bit per row of [from, to),\n");
        m.append("    // set when every comparison holds; 64 rows per word, a vector compare per lane group\n");
        m.append("    private long[] vectorSelect(long from, long to) {\n");
        m.append(constantLocals);
        List<String> segments = vectorTerms.stream().map(VectorTerm::segment).distinct().toList();
        m.append("        if (!(").append(String.join(".isNative() && ", segments)).append(".isNative())) {\n");
        m.append("            return ").append(selection).append(".select(from, to);\n");
        m.append("        }\n");
        m.append("        final int n = (int) (to - from);\n");
        m.append("        final long[] bits = new long[(n + 63) >>> 6];\n");
        m.append("        for (int w = 0; w < bits.length; w++) {\n");
        m.append("            final long base = from + ((long) w << 6);\n");
        m.append("            final int len = Math.min(64, n - (w << 6));\n");
        m.append("            long word = len == 64 ? -1L : (1L << len) - 1;\n");
        m.append("            if (len == 64) {\n");
        for (VectorTerm t : vectorTerms) {
            m.append("                if (word != 0) { // ").append(GeneratedSource.comment(t.text())).append('\n');
            m.append("                    long mask = 0;\n");
            m.append("                    for (int j = 0; j < 64; j += VS_").append(t.kind()).append(".length()) {\n");
            m.append("                        mask |= jdk.incubator.vector.").append(VectorTerm.vectorClass(t.kind()))
                    .append(".fromMemorySegment(VS_").append(t.kind()).append(", ").append(t.segment())
                    .append(", (base + j) << ").append(t.shift())
                    .append(", java.nio.ByteOrder.LITTLE_ENDIAN)\n");
            m.append("                                .compare(jdk.incubator.vector.VectorOperators.").append(t.op())
                    .append(", ").append(t.bound()).append(").toLong() << j;\n");
            m.append("                    }\n");
            m.append("                    word &= mask;\n");
            m.append("                }\n");
        }
        m.append("            } else { // the morsel's last rows, one by one\n");
        m.append("                for (int j = 0; j < len; j++) {\n");
        m.append("                    final long r = base + j;\n");
        List<String> conds = new ArrayList<>();
        for (VectorTerm t : vectorTerms) {
            conds.add(t.segment() + ".get(" + t.kind() + ", r << " + t.shift() + ") " + t.javaOp() + " " + t.bound());
        }
        m.append("                    if (!(").append(String.join(" && ", conds)).append(")) {\n");
        m.append("                        word &= ~(1L << j);\n");
        m.append("                    }\n");
        m.append("                }\n");
        m.append("            }\n");
        m.append("            bits[w] = word;\n");
        m.append("        }\n");
        m.append("        return bits;\n");
        m.append("    }\n");
        return m.toString();
    }

    // ---- emission helpers ----

    private void line(String s) {
        target.append("    ".repeat(indent)).append(s).append('\n');
    }

    /** A comment line; its text goes through the one sanitizer, as every comment with user text in it does. */
    private void comment(String s) {
        line("// " + GeneratedSource.comment(s));
    }

    private String name(String hint) {
        return hint + (names++);
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
        }
        return f;
    }

    @Override
    public String dictionary(String key) {
        return dictFields.computeIfAbsent(key, k -> field("io.tessera.storage.Dictionary",
                "ctx.dictionary(" + constantString(k) + ")", "dict"));
    }

    @Override
    public String constant(JKind kind, Object value) {
        int i = constants.size();
        String read = switch (kind) {
            case INT -> "((Number) k[" + i + "]).intValue()";
            case LONG -> "((Number) k[" + i + "]).longValue()";
            case DOUBLE -> "((Number) k[" + i + "]).doubleValue()";
            case BOOL -> "((Boolean) k[" + i + "]).booleanValue()";
            case STRING -> "(String) k[" + i + "]";
            case CODE -> throw new IllegalArgumentException("a code is no constant");
        };
        return constantField(kind.javaType, read, value, GeneratedSource.comment(value instanceof String str ? "'" + str + "'" : value));
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
        constantLocals.append("        final ").append(javaType).append(' ').append(f).append(" = this.").append(f).append(";\n");
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
    private void load(Expr e) {
        if (e instanceof Expr.Ref r) {
            loadSlot(r.slot());
        } else if (e instanceof Expr.Call c) {
            for (Expr a : c.args()) {
                load(a);
            }
        }
    }

    private static String slotKey(Slot s) {
        return s.isSource() ? "s" + s.index() : "j" + s.joinId() + "_" + s.index();
    }

    private void loadSlot(Slot s) {
        String key = slotKey(s);
        if (loaded.containsKey(key)) {
            return;
        }
        JKind k = JKind.stored(s.type());
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
            String at = field(k == JKind.BOOL ? "byte[]" : k.javaType + "[]",
                    "ctx.joinTable(" + j + ").payload." + arr + "[" + s.index() + "]", "j" + j + "_p");
            String nb = field("long[]", "ctx.joinTable(" + j + ").payload.nulls[" + s.index() + "]", "j" + j + "_n");
            boolean left = joinKind.get(j) == JoinKind.LEFT;
            value = at + "[" + r + "]" + (k == JKind.BOOL ? " != 0" : "");
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
        line("final " + k.javaType + " " + var + " = " + value + ";");
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

    // ---- operations ----

    private void filter(Expr cond) {
        comment("FILTER " + cond);
        load(cond);
        line("if (!" + gen.gen(cond).isTrue() + ") continue;");
    }

    private void filterPredicated(List<Expr> conds) {
        comment("FILTER (predicated) " + conds);
        for (Expr c : conds) {
            load(c);
        }
        StringBuilder sb = new StringBuilder();
        for (Expr c : conds) {
            sb.append(sb.length() == 0 ? "" : " & ").append(gen.gen(c).isTrue());
        }
        line("if (!(" + sb + ")) continue;");
    }

    /** A key value as the long the hash tables use; CODE keys of another dictionary are mapped to the build's codes. */
    private String keyLong(JExpr x, DataType type, DataType common, String buildDict) {
        if (x.kind() == JKind.STRING) {
            throw new SqlError("unsupported: a join or group key computed as a string");
        }
        if (x.kind() == JKind.CODE && buildDict != null && !buildDict.equals(x.dict())) {
            String map = field("int[]", "io.tessera.backend.jvm.Runtime.codeMap(" + dictionary(x.dict()) + ", "
                    + dictionary(buildDict) + ")", "codemap");
            return "(long) " + map + "[" + x.v() + "]";
        }
        if (common != null && common.kind() == TypeKind.DECIMAL && type.kind() != TypeKind.DOUBLE) {
            int s = common.scale() - ExprGen.scaleOf(type);
            return s == 0 ? "(long) " + x.v() : "io.tessera.backend.jvm.Runtime.rescale((long) " + x.v() + ", " + s + ")";
        }
        if (common != null && common.kind() == TypeKind.DOUBLE) {
            return "io.tessera.backend.jvm.Hashing.doubleKey(" + gen.convert(x, type, DataType.DOUBLE).v() + ")";
        }
        return switch (x.kind()) {
            case DOUBLE -> "io.tessera.backend.jvm.Hashing.doubleKey(" + x.v() + ")";
            case BOOL -> "(" + x.v() + " ? 1L : 0L)";
            default -> "(long) " + x.v();
        };
    }

    static String buildKeyDict(Expr buildKey) {
        return buildKey.type().kind() == TypeKind.VARCHAR && buildKey instanceof Expr.Ref r ? r.slot().dictionaryKey() : null;
    }

    private void probe(Operation.Probe op) {
        int j = op.joinId();
        Sink.Build b = op.build();
        comment("PROBE j" + j + " (" + op.kind() + ", " + g.get(JvmDimensions.probeTable(j)) + ") on " + op.keys());
        List<String> keys = new ArrayList<>();
        List<String> nulls = new ArrayList<>();
        for (int k = 0; k < op.keys().size(); k++) {
            Expr e = op.keys().get(k);
            load(e);
            JExpr x = gen.gen(e);
            Expr bk = b.keys().get(k);
            String kv = name("key");
            String buildDict = buildKeyDict(bk);
            if (e.type().kind() == TypeKind.VARCHAR && buildDict == null) {
                throw new SqlError("unsupported: a join on a computed string");
            }
            line("final long " + kv + " = " + keyLong(x, e.type(), b.commonKeyTypes().get(k), buildDict) + ";");
            keys.add(kv);
            if (x.nullable()) {
                nulls.add(x.n());
            }
            if (x.kind() == JKind.CODE && buildDict != null && !buildDict.equals(x.dict())) {
                nulls.add("(" + kv + " < 0)");
            }
        }
        String r = "r" + j;
        joinRow.put(j, r);
        joinKind.put(j, op.kind());
        JoinTable.Layout layout = JoinTable.Layout.of(g.get(JvmDimensions.probeTable(j)));
        boolean perfect = layout == JoinTable.Layout.PERFECT;
        boolean murmur = "murmur".equals(g.get(JvmDimensions.probeHash(j)));
        String nullCond = String.join(" || ", nulls);
        String lookup;
        if (perfect) {
            String min = field("long", "ctx.joinTable(" + j + ").min", "j" + j + "_min");
            String max = field("long", "ctx.joinTable(" + j + ").max", "j" + j + "_max");
            String first = field("int[]", "ctx.joinTable(" + j + ").first", "j" + j + "_first");
            String k = keys.get(0);
            lookup = "(" + k + " < " + min + " || " + k + " > " + max + ") ? -1 : " + first + "[(int) (" + k + " - " + min + ")]";
        } else if (keys.size() == 1 && layout.ways > 0) {
            // cuckoo: the key is in one of its candidate slots, or in the (normally empty) stash
            String slotKeys = field("long[]", "ctx.joinTable(" + j + ").slotKeys", "j" + j + "_keys");
            String slotRows = field("int[]", "ctx.joinTable(" + j + ").slotRows", "j" + j + "_rows");
            String bits = field("int", "ctx.joinTable(" + j + ").bits", "j" + j + "_bits");
            String stash = field("int", "ctx.joinTable(" + j + ").stashSize", "j" + j + "_stash");
            String t = field("io.tessera.backend.jvm.JoinTable", "ctx.joinTable(" + j + ")", "j" + j + "_table");
            String s = name("slot");
            String k = keys.get(0);
            line("int " + r + " = -1;");
            line("int " + s + ";");
            for (int fn = 0; fn < layout.ways; fn++) {
                String test = s + " = io.tessera.backend.jvm.Hashing.cuckoo(" + k + ", " + fn + ", " + bits + ", " + murmur + "); "
                        + "if (" + slotRows + "[" + s + "] >= 0 && " + slotKeys + "[" + s + "] == " + k + ") " + r + " = "
                        + slotRows + "[" + s + "];";
                line(fn == 0 ? test : "if (" + r + " < 0) { " + test + " }");
            }
            line("if (" + r + " < 0 && " + stash + " > 0) " + r + " = " + t + ".findStash1(" + k + ");");
            lookup = null;
        } else if (keys.size() == 1) {
            String slotKeys = field("long[]", "ctx.joinTable(" + j + ").slotKeys", "j" + j + "_keys");
            String slotRows = field("int[]", "ctx.joinTable(" + j + ").slotRows", "j" + j + "_rows");
            String bits = field("int", "ctx.joinTable(" + j + ").bits", "j" + j + "_bits");
            String mask = field("int", "ctx.joinTable(" + j + ").mask", "j" + j + "_mask");
            String s = name("slot");
            line("int " + r + " = -1;");
            line("for (int " + s + " = io.tessera.backend.jvm.Hashing." + (murmur ? "murmur" : "multiplyShift") + "("
                    + keys.get(0) + ", " + bits + "); ; " + s + " = (" + s + " + 1) & " + mask + ") {");
            line("    final int at = " + slotRows + "[" + s + "];");
            line("    if (at < 0 || " + slotKeys + "[" + s + "] == " + keys.get(0) + ") { " + r + " = at; break; }");
            line("}");
            lookup = null;
        } else if (keys.size() == 2) {
            String t = field("io.tessera.backend.jvm.JoinTable", "ctx.joinTable(" + j + ")", "j" + j + "_table");
            lookup = t + ".find2(" + keys.get(0) + ", " + keys.get(1) + ")";
        } else {
            String t = field("io.tessera.backend.jvm.JoinTable", "ctx.joinTable(" + j + ")", "j" + j + "_table");
            lookup = t + ".find(new long[] {" + String.join(", ", keys) + "})";
        }
        if (lookup != null) {
            line("int " + r + " = " + lookup + ";");
        }
        if (!nullCond.isEmpty()) {
            line("if (" + nullCond + ") " + r + " = -1; // NULL keys never match");
        }
        switch (op.kind()) {
            case SEMI -> line("if (" + r + " < 0) continue;");
            case ANTI -> line("if (" + r + " >= 0) continue;");
            case INNER -> {
                line("if (" + r + " < 0) continue;");
                if (!b.uniqueKeys()) {
                    String next = field("int[]", "ctx.joinTable(" + j + ").next", "j" + j + "_next");
                    line("do { // every build row with this key");
                    closers.add("} while ((" + r + " = " + next + "[" + r + "]) >= 0);");
                    indent++;
                }
            }
            case LEFT -> {
                if (!b.uniqueKeys()) {
                    String next = field("int[]", "ctx.joinTable(" + j + ").next", "j" + j + "_next");
                    line("do { // every build row with this key, or once with NULLs when none");
                    closers.add("} while (" + r + " >= 0 && (" + r + " = " + next + "[" + r + "]) >= 0);");
                    indent++;
                }
            }
        }
    }


    // ---- sinks ----

    private void sink(Sink s) {
        switch (s) {
            case Sink.Build b -> build(b);
            case Sink.Aggregate a -> aggregate(a);
            case Sink.GroupAggregate ga -> groupAggregate(ga);
            case Sink.Materialize m -> materialize(m.outputs(), m.offset(), m.fetch(), "MATERIALIZE");
            case Sink.Sort so -> materialize(so.outputs(), 0, -1, so.isTopK() ? "TOP_K (rows collected, kept in finish)" : "SORT (rows collected, sorted in finish)");
        }
        for (int i = closers.size() - 1; i >= 0; i--) {
            indent--;
            line(closers.get(i));
        }
    }

    private void bufferLayout(List<Expr> outs, int extraLongs) {
        bufferKinds = new JKind[outs.size() + extraLongs];
        bufferDicts = new String[outs.size() + extraLongs];
        for (int c = 0; c < outs.size(); c++) {
            Expr e = outs.get(c);
            load(e);
            JExpr x = gen.gen(e);
            bufferKinds[c] = x.kind();
            bufferDicts[c] = x.dict();
        }
        for (int c = outs.size(); c < bufferKinds.length; c++) {
            bufferKinds[c] = JKind.LONG;
        }
    }

    private void store(String buf, int c, JExpr x, String w) {
        String arr = switch (x.kind()) {
            case INT, CODE -> "ints";
            case LONG -> "longs";
            case DOUBLE -> "doubles";
            case BOOL -> "bytes";
            case STRING -> "strings";
        };
        String v = x.kind() == JKind.BOOL ? "(byte) (" + x.v() + " ? 1 : 0)" : x.v();
        line(buf + "." + arr + "[" + c + "][" + w + "] = " + v + ";");
        if (x.nullable()) {
            line("if (" + x.n() + ") " + buf + ".setNull(" + c + ", " + w + ");");
        }
    }

    private void materialize(List<Expr> outs, long offset, long fetch, String what) {
        comment(what + " " + outs);
        bufferLayout(outs, 0);
        before.append("        final io.tessera.backend.jvm.RowBuffer out = (io.tessera.backend.jvm.RowBuffer) sinkState;\n");
        line("final int w = out.next();");
        for (int c = 0; c < outs.size(); c++) {
            store("out", c, gen.gen(outs.get(c)), "w");
        }
        if (fetch >= 0) {
            line("if (out.size >= " + (offset + fetch) + "L) return; // LIMIT: enough rows in this worker");
        }
    }

    private void build(Sink.Build b) {
        comment("BUILD j" + b.joinId() + " (" + g.get(JvmDimensions.HASH_TABLE) + ") keys " + b.keys() + " payload " + b.payloadNames());
        bufferLayout(b.payload(), b.keys().size());
        before.append("        final io.tessera.backend.jvm.RowBuffer out = (io.tessera.backend.jvm.RowBuffer) sinkState;\n");
        List<String> keyVals = new ArrayList<>();
        for (int k = 0; k < b.keys().size(); k++) {
            Expr e = b.keys().get(k);
            load(e);
            JExpr x = gen.gen(e);
            if (x.nullable()) {
                line("if (" + x.n() + ") continue; // a NULL key never matches");
            }
            keyVals.add(keyLong(x, e.type(), b.commonKeyTypes().get(k), null));
        }
        line("final int w = out.next();");
        for (int c = 0; c < b.payload().size(); c++) {
            store("out", c, gen.gen(b.payload().get(c)), "w");
        }
        for (int k = 0; k < keyVals.size(); k++) {
            line("out.longs[" + (b.payload().size() + k) + "][w] = " + keyVals.get(k) + ";");
        }
    }

    private AggSpec spec(AggCall a) {
        JKind k = JKind.LONG;
        DataType argType = a.arg() == null ? DataType.BIGINT : a.arg().type();
        if (a.arg() != null) {
            load(a.arg());
            JExpr x = gen.gen(a.arg());
            k = x.kind();
            if (k == JKind.STRING && a.function() != AggFunction.COUNT && a.function() != AggFunction.COUNT_DISTINCT) {
                throw new SqlError("unsupported: " + a.function() + " of a computed string");
            }
        }
        return new AggSpec(a.function(), k, argType, a.type());
    }

    private void aggregate(Sink.Aggregate a) {
        comment("AGGREGATE " + a.aggs());
        aggSpecs = new AggSpec[a.aggs().size()];
        keyKinds = new JKind[0];
        keyDicts = new String[0];
        dense = true;
        denseMins = new long[0];
        denseSizes = new long[0];
        before.append("        final io.tessera.backend.jvm.DenseGroupTable t = (io.tessera.backend.jvm.DenseGroupTable) sinkState;\n");
        before.append("        long rows = 0;\n");
        line("rows++;");
        for (int i = 0; i < a.aggs().size(); i++) {
            AggCall call = a.aggs().get(i);
            AggSpec s = aggSpecs[i] = spec(call);
            String cnt = "cnt" + i;
            before.append("        long ").append(cnt).append(" = 0;\n");
            String val = "val" + i;
            if (s.hasValue()) {
                before.append("        ").append(s.doubleValue() ? "double " : "long ").append(val).append(" = ")
                        .append(s.doubleValue() ? "0.0d" : "0L").append(";\n");
            }
            String guard = filterGuard(call);
            if (guard != null) {
                line("if (" + guard + ") {");
                indent++;
            }
            updateAccumulator(call, s, call.arg() == null ? null : gen.gen(call.arg()), i, cnt, val, "0", true);
            if (guard != null) {
                indent--;
                line("}");
            }
            // merge this morsel's accumulators into the worker's state
            if (s.hasValue()) {
                String tv = "t." + (s.doubleValue() ? "dvals" : "lvals") + "[" + i + "][0]";
                after.append("        if (").append(cnt).append(" > 0) {\n");
                if (s.isMin() || s.isMax()) {
                    after.append("            if (t.counts[").append(i).append("][0] == 0 || ").append(val)
                            .append(s.isMin() ? " < " : " > ").append(tv).append(") ").append(tv).append(" = ").append(val).append(";\n");
                } else if (call.function() == AggFunction.SINGLE_VALUE || call.function() == AggFunction.ANY_VALUE) {
                    after.append("            ").append(tv).append(" = ").append(val).append(";\n");
                } else if (s.doubleValue()) {
                    after.append("            ").append(tv).append(" += ").append(val).append(";\n");
                } else {
                    after.append("            ").append(tv).append(" = Math.addExact(").append(tv).append(", ").append(val).append(");\n");
                }
                after.append("        }\n");
            }
            after.append("        t.counts[").append(i).append("][0] += ").append(cnt).append(";\n");
        }
        after.append("        t.rows[0] += rows;\n");
    }

    private String filterGuard(AggCall call) {
        if (call.filter() == null) {
            return null;
        }
        load(call.filter());
        return gen.gen(call.filter()).isTrue();
    }

    /**
     * Updates aggregate i for the current row: into locals ({@code local}: AGGREGATE) or into the group's slot
     * {@code grp} of the worker's table.
     */
    private void updateAccumulator(AggCall call, AggSpec s, JExpr x, int i, String cnt, String val, String grp, boolean local) {
        String c = local ? cnt : "t.counts[" + i + "][" + grp + "]";
        String v = local ? val : "t." + (s.doubleValue() ? "dvals" : "lvals") + "[" + i + "][" + grp + "]";
        if (call.function() == AggFunction.COUNT_STAR) {
            line(c + "++;");
            return;
        }
        String notNull = x.nullable() ? "!" + x.n() : null;
        String value = switch (x.kind()) {
            case BOOL -> "(" + x.v() + " ? 1L : 0L)";
            default -> x.v();
        };
        List<String> stmts = new ArrayList<>();
        switch (call.function()) {
            case COUNT -> stmts.add(c + "++;");
            case COUNT_DISTINCT -> {
                String dv = x.kind() == JKind.STRING ? x.v() : x.kind() == JKind.DOUBLE
                        ? "io.tessera.backend.jvm.Hashing.doubleKey(" + x.v() + ")" : "(long) " + value;
                stmts.add("t.addDistinct(" + i + ", " + grp + ", " + dv + ");");
                stmts.add(c + "++;");
            }
            case SUM, SUM0, AVG -> {
                stmts.add(s.doubleValue() ? v + " += " + value + ";" : v + " = Math.addExact(" + v + ", " + value + ");");
                stmts.add(c + "++;");
            }
            case MIN, MAX -> {
                stmts.add("if (" + c + " == 0 || " + value + (s.isMin() ? " < " : " > ") + v + ") " + v + " = " + value + ";");
                stmts.add(c + "++;");
            }
            case SINGLE_VALUE, ANY_VALUE -> {
                stmts.add(v + " = " + value + ";");
                stmts.add(c + "++;");
            }
            default -> throw new IllegalStateException();
        }
        if (notNull != null) {
            line("if (" + notNull + ") {");
            indent++;
        }
        for (String st : stmts) {
            line(st);
        }
        if (notNull != null) {
            indent--;
            line("}");
        }
    }

    private void groupAggregate(Sink.GroupAggregate ga) {
        int nk = ga.keys().size();
        String mode = g.get(JvmDimensions.AGGREGATION);
        dense = "dense".equals(mode);
        boolean murmur = g.has(JvmDimensions.HASH) && "murmur".equals(g.get(JvmDimensions.HASH));
        comment("GROUP_AGGREGATE (" + switch (mode) {
            case "dense" -> "dense array per worker, merged at the end";
            case "hash" -> "hash table per worker, merged at the end";
            case "shared" -> "one hash table shared by the workers, in lock stripes";
            case "partitioned" -> "rows radix-partitioned by key hash, then one hash table per partition";
            default -> throw new IllegalArgumentException("genome " + g + ": unknown aggregation " + mode);
        } + (dense ? "" : murmur ? ", murmur" : ", multiply-shift") + ") by " + ga.keys() + " " + ga.aggs());
        keyKinds = new JKind[nk];
        keyDicts = new String[nk];
        List<JExpr> keys = new ArrayList<>();
        for (int k = 0; k < nk; k++) {
            Expr e = ga.keys().get(k);
            load(e);
            JExpr x = gen.gen(e);
            keys.add(x);
            keyKinds[k] = x.kind();
            keyDicts[k] = x.dict();
            nullableKeys |= x.nullable();
        }
        aggSpecs = new AggSpec[ga.aggs().size()];
        for (int i = 0; i < aggSpecs.length; i++) {
            aggSpecs[i] = spec(ga.aggs().get(i));
        }
        keyWidth = nk + (nullableKeys ? 1 : 0);
        switch (mode) {
            case "dense" -> {
                before.append("        final io.tessera.backend.jvm.DenseGroupTable t = (io.tessera.backend.jvm.DenseGroupTable) sinkState;\n");
                denseGroup(ga, keys);
                updates(ga);
            }
            case "hash" -> {
                before.append("        final io.tessera.backend.jvm.HashGroupTable t = (io.tessera.backend.jvm.HashGroupTable) sinkState;\n");
                findGroup(encodedKeys(keys, false));
                updates(ga);
            }
            case "shared" -> {
                before.append("        final io.tessera.backend.jvm.SharedGroupTable shared = (io.tessera.backend.jvm.SharedGroupTable) sinkState;\n");
                String h = name("stripeHash");
                line("final long " + h + " = " + combined(encodedKeys(keys, true)) + ";");
                line("final io.tessera.backend.jvm.HashGroupTable t = shared.stripe(" + h + ");");
                line("synchronized (t) { // the stripe of this key's group");
                indent++;
                findGroup(encodedKeys(keys, false));
                updates(ga);
                indent--;
                line("}");
            }
            default -> partitioned(ga, keys);
        }
    }

    /** The dense array's group index of the current row. */
    private void denseGroup(Sink.GroupAggregate ga, List<JExpr> keys) {
        int nk = keys.size();
        denseMins = new long[nk];
        denseSizes = new long[nk];
        StringBuilder idx = new StringBuilder();
        long stride = 1;
        String[] parts = new String[nk];
        for (int k = nk - 1; k >= 0; k--) {
            KeyRange r = ga.ranges().get(k);
            if (r == null) {
                throw new IllegalStateException("dense aggregation without a key range");
            }
            denseMins[k] = r.min();
            denseSizes[k] = r.size() + 1; // one slot for NULL
            JExpr x = keys.get(k);
            String off = "(" + (x.kind() == JKind.BOOL ? "(" + x.v() + " ? 1L : 0L)" : "(long) " + x.v()) + " - " + r.min() + "L)";
            if (x.nullable()) {
                off = "(" + x.n() + " ? " + r.size() + "L : " + off + ")";
            }
            parts[k] = stride == 1 ? off : off + " * " + stride + "L";
            stride *= denseSizes[k];
        }
        for (int k = 0; k < nk; k++) {
            idx.append(k == 0 ? "" : " + ").append(parts[k]);
        }
        line("final int grp = (int) (" + idx + ");");
        line("t.rows[grp]++;");
    }

    /**
     * The keys as the hash tables hold them ({@code keyWidth} longs: one per key, NULL as 0, then a NULL mask when
     * a key is nullable); strings are interned by table {@code t}, or, {@code forSpreading} a row over stripes or
     * partitions before any table is known, taken by their hash code.
     */
    private List<String> encodedKeys(List<JExpr> keys, boolean forSpreading) {
        List<String> enc = new ArrayList<>();
        StringBuilder mask = new StringBuilder();
        for (int k = 0; k < keys.size(); k++) {
            JExpr x = keys.get(k);
            String e = switch (x.kind()) {
                case STRING -> forSpreading ? "(long) " + x.v() + ".hashCode()" : "t.intern(" + x.v() + ")";
                case DOUBLE -> "io.tessera.backend.jvm.Hashing.doubleKey(" + x.v() + ")";
                case BOOL -> "(" + x.v() + " ? 1L : 0L)";
                default -> "(long) " + x.v();
            };
            if (x.nullable()) {
                e = "(" + x.n() + " ? 0L : " + e + ")";
                mask.append(mask.length() == 0 ? "" : " | ").append("(").append(x.n()).append(" ? ").append(1L << k).append("L : 0L)");
            }
            enc.add(e);
        }
        if (nullableKeys) {
            enc.add(mask.toString());
        }
        return enc;
    }

    private static String combined(List<String> enc) {
        if (enc.size() == 1) {
            return enc.get(0);
        }
        String h = "0L";
        for (String e : enc) {
            h = "io.tessera.backend.jvm.Hashing.combine(" + h + ", " + e + ")";
        }
        return h;
    }

    /** {@code grp}: the current row's group in hash table {@code t}, inserted when new. */
    private void findGroup(List<String> enc) {
        if (keyWidth == 1) {
            line("final int grp = t.find1(" + enc.get(0) + ");");
        } else if (keyWidth == 2) {
            line("final int grp = t.find2(" + enc.get(0) + ", " + enc.get(1) + ");");
        } else {
            for (int k = 0; k < keyWidth; k++) {
                line("t.scratch[" + k + "] = " + enc.get(k) + ";");
            }
            line("final int grp = t.findN();");
        }
    }

    /** Every aggregate's update of group {@code grp} of table {@code t} for the current row. */
    private void updates(Sink.GroupAggregate ga) {
        for (int i = 0; i < aggSpecs.length; i++) {
            AggCall call = ga.aggs().get(i);
            String guard = filterGuard(call);
            if (guard != null) {
                line("if (" + guard + ") {");
                indent++;
            }
            updateAccumulator(call, aggSpecs[i], call.arg() == null ? null : gen.gen(call.arg()), i, null, null, "grp", false);
            if (guard != null) {
                indent--;
                line("}");
            }
        }
    }

    /**
     * Partitioned aggregation. The loop writes each row's keys and aggregate inputs into the worker's buffer of
     * the row's partition (by key hash); {@code aggregatePartition} then aggregates one partition's buffered rows
     * into its own hash table (partitions hold disjoint keys, so their tables need no merging of equal groups).
     * Buffer columns: the keys (a LONG each, a STRING for a string key), the NULL mask when a key is nullable,
     * then per aggregate a BOOL (the row counts for it: its FILTER holds) and its argument's value.
     */
    private void partitioned(Sink.GroupAggregate ga, List<JExpr> keys) {
        before.append("        final io.tessera.backend.jvm.PartitionedInput parts = (io.tessera.backend.jvm.PartitionedInput) sinkState;\n");
        int nk = keys.size();
        List<JKind> kinds = new ArrayList<>();
        String h = name("partitionHash");
        line("final long " + h + " = " + combined(encodedKeys(keys, true)) + ";");
        line("final io.tessera.backend.jvm.RowBuffer out = parts.part(" + h + ");");
        line("final int w = out.next();");
        List<String> enc = encodedKeys(keys, false);
        for (int k = 0; k < nk; k++) {
            JExpr x = keys.get(k);
            if (x.kind() == JKind.STRING) {
                line("out.strings[" + k + "][w] = " + (x.nullable() ? "(" + x.n() + " ? null : " + x.v() + ")" : x.v()) + ";");
                kinds.add(JKind.STRING);
            } else {
                line("out.longs[" + k + "][w] = " + enc.get(k) + ";");
                kinds.add(JKind.LONG);
            }
        }
        if (nullableKeys) {
            line("out.longs[" + nk + "][w] = " + enc.get(nk) + ";");
            kinds.add(JKind.LONG);
        }
        int[] flagCol = new int[aggSpecs.length];
        int[] valueCol = new int[aggSpecs.length];
        JExpr[] values = new JExpr[aggSpecs.length];
        for (int i = 0; i < aggSpecs.length; i++) {
            AggCall call = ga.aggs().get(i);
            String guard = filterGuard(call);
            flagCol[i] = kinds.size();
            kinds.add(JKind.BOOL);
            line("out.bytes[" + flagCol[i] + "][w] = " + (guard == null ? "1" : "(byte) (" + guard + " ? 1 : 0)") + ";");
            valueCol[i] = -1;
            if (call.arg() != null) {
                JExpr x = gen.gen(call.arg());
                valueCol[i] = kinds.size();
                kinds.add(x.kind());
                store("out", valueCol[i], x, "w");
                String arr = switch (x.kind()) {
                    case INT, CODE -> "ints";
                    case LONG -> "longs";
                    case DOUBLE -> "doubles";
                    case BOOL -> "bytes";
                    case STRING -> "strings";
                };
                String v = "in." + arr + "[" + valueCol[i] + "][i]" + (x.kind() == JKind.BOOL ? " != 0" : "");
                values[i] = new JExpr(v, x.nullable() ? "in.isNull(" + valueCol[i] + ", i)" : "false", x.kind(), x.dict());
            }
        }
        bufferKinds = kinds.toArray(new JKind[0]);
        bufferDicts = new String[bufferKinds.length];

        // the second phase: one partition's rows into table t
        StringBuilder saved = target;
        int savedIndent = indent;
        target = partitionMethod;
        indent = 3;
        List<String> stored = new ArrayList<>();
        for (int k = 0; k < nk; k++) {
            stored.add(kinds.get(k) == JKind.STRING
                    ? "(in.strings[" + k + "][i] == null ? 0L : t.intern(in.strings[" + k + "][i]))" : "in.longs[" + k + "][i]");
        }
        if (nullableKeys) {
            stored.add("in.longs[" + nk + "][i]");
        }
        findGroup(stored);
        for (int i = 0; i < aggSpecs.length; i++) {
            line("if (in.bytes[" + flagCol[i] + "][i] != 0) {");
            indent++;
            updateAccumulator(ga.aggs().get(i), aggSpecs[i], values[i], i, null, null, "grp", false);
            indent--;
            line("}");
        }
        target = saved;
        indent = savedIndent;
    }

    // ---- the class ----

    private String assemble() {
        StringBuilder sb = new StringBuilder();
        sb.append("// Generated by Tessera's JVM backend. The query's constants are fields k0, k1, ..., bound at run time.\n");
        sb.append("// genome: ").append(GeneratedSource.comment(g)).append('\n');
        for (String l : p.toString().split("\n")) {
            sb.append("// ").append(GeneratedSource.comment(l)).append('\n');
        }
        sb.append("public final class ").append(className).append(" extends io.tessera.backend.jvm.PipelineCode {\n");
        sb.append("    private static final java.lang.foreign.ValueLayout.OfInt INT = java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;\n");
        sb.append("    private static final java.lang.foreign.ValueLayout.OfLong LONG = java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;\n");
        sb.append("    private static final java.lang.foreign.ValueLayout.OfDouble DOUBLE = java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED;\n");
        sb.append("    private static final java.lang.foreign.ValueLayout.OfByte BYTE = java.lang.foreign.ValueLayout.JAVA_BYTE;\n");
        if (selection != null) {
            for (String k : List.of("INT", "LONG", "DOUBLE")) {
                sb.append("    private static final jdk.incubator.vector.VectorSpecies VS_").append(k)
                        .append(" = jdk.incubator.vector.").append(VectorTerm.vectorClass(k)).append(".SPECIES_PREFERRED;\n");
            }
        }
        sb.append(fields);
        sb.append("\n    public void init(io.tessera.backend.jvm.PipelineContext ctx, Object[] k) {\n").append(constantInit)
                .append(init).append("    }\n");
        sb.append("\n    public void run(long from, long to, Object sinkState) {\n");
        sb.append(constantLocals);
        sb.append(before);
        if (selection == null) {
            sb.append("        for (long i = from; i < to; i++) { // ").append(GeneratedSource.comment(p.source())).append('\n');
            sb.append(body);
            sb.append("        }\n");
        } else {
            sb.append("        // FILTER (vectorized) ").append(GeneratedSource.comment(selectionText)).append(": a bit per selected row of the morsel\n");
            sb.append("        final long[] sel = vectorSelect(from, to);\n");
            sb.append("        for (int wi = 0; wi < sel.length; wi++) { // ").append(GeneratedSource.comment(p.source())).append(", selected rows\n");
            sb.append("            for (long word = sel[wi]; word != 0; ) {\n");
            sb.append("                final long i = from + ((long) wi << 6) + Long.numberOfTrailingZeros(word);\n");
            sb.append("                word &= word - 1;\n");
            sb.append(body);
            sb.append("            }\n");
            sb.append("        }\n");
        }
        sb.append(after);
        sb.append("    }\n");
        if (selection != null) {
            sb.append(vectorSelectMethod());
        }
        if (partitionMethod.length() > 0) {
            sb.append("\n    public void aggregatePartition(io.tessera.backend.jvm.RowBuffer in, Object table) {\n");
            sb.append(constantLocals);
            sb.append("        final io.tessera.backend.jvm.HashGroupTable t = (io.tessera.backend.jvm.HashGroupTable) table;\n");
            sb.append("        for (int i = 0; i < in.size; i++) { // the partition's buffered rows\n");
            sb.append(partitionMethod);
            sb.append("        }\n");
            sb.append("    }\n");
        }
        sb.append("}\n");
        return sb.toString();
    }
}
