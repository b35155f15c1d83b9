package io.tessera.backend.jvm.filter;

import io.tessera.backend.CodeNames;
import io.tessera.backend.GeneratedSource;
import io.tessera.backend.ValueKind;
import io.tessera.backend.jvm.gen.PipelineWriter;
import io.tessera.backend.jvm.lib.VectorFilter;
import io.tessera.backend.lower.DictionaryBound;
import io.tessera.plan.PipelineAnalysis;
import io.tessera.plan.Slot;

import java.util.ArrayList;
import java.util.List;

/**
 * The vectorized filter ({@code simd=vector}): the pipeline's leading comparisons of a column with a constant,
 * evaluated with the Vector API a morsel at a time into a bitmap of selected rows, which the loop then visits
 * instead of every row. The scalar strategy ({@code simd=scalar}) leaves them to {@link FilterEmitter}.
 */
public final class VectorFilterEmitter {

    private final PipelineWriter w;
    /** The comparisons, in order. */
    private final List<VectorTerm> terms = new ArrayList<>();
    /** The field of the shared {@link VectorFilter} (for columns on the heap). */
    String selection;
    /** The comparisons as text, for comments. */
    public String text;

    private VectorFilterEmitter(PipelineWriter w) {
        this.w = w;
    }

    /**
     * A field holding the vectorized filter of these comparisons ({@link VectorFilter}); the rows it selects in a
     * morsel are the only ones the loop visits.
     */
    public static VectorFilterEmitter emit(PipelineWriter w, List<PipelineAnalysis.ColumnComparison> terms) {
        VectorFilterEmitter v = new VectorFilterEmitter(w);
        StringBuilder sb = new StringBuilder("new io.tessera.backend.jvm.lib.VectorFilter()");
        List<String> text = new ArrayList<>();
        for (PipelineAnalysis.ColumnComparison t : terms) {
            Slot s = t.column();
            String col = "ctx.column(" + s.index() + ").data()";
            String segment = w.field("java.lang.foreign.MemorySegment", col, "vcol");
            switch (ValueKind.stored(s.type())) {
                case INT, LONG, DOUBLE -> {
                    ValueKind k = ValueKind.stored(s.type());
                    String bound = w.constant(k, k == ValueKind.DOUBLE ? (Object) t.doubleValue() : (Object) t.value());
                    String filter = switch (k) {
                        case INT -> ".ints(";
                        case LONG -> ".longs(";
                        default -> ".doubles(";
                    };
                    sb.append(filter).append(col).append(", ").append(VectorFilter.class.getName()).append('.')
                            .append(t.op()).append(", ").append(bound).append(")");
                    // the comment names the column by position and the constant by its field, never their text
                    text.add(CodeNames.slot(s) + " " + t.op() + " " + bound);
                    v.terms.add(new VectorTerm(text.getLast(), segment, k.name(), t.op().name(), bound));
                }
                case CODE -> {
                    // through the order-preserving dictionary, as ExprGen compares a code with a constant
                    String d = w.dictionary(s.dictionaryKey());
                    String lit = w.constantString(t.string());
                    String vf = VectorFilter.class.getName() + ".";
                    DictionaryBound bound = DictionaryBound.of(t.op());
                    String op = bound.op().name();
                    String number = d + "." + bound.method() + "(" + lit + ")";
                    sb.append(".ints(").append(col).append(", ").append(vf).append(op).append(", ")
                            .append(number).append(")");
                    String codeBound = w.field("int", number, "vbound");
                    text.add(CodeNames.slot(s) + " " + t.op() + " the code bound " + codeBound);
                    v.terms.add(new VectorTerm(text.getLast(), segment, "INT", op, codeBound));
                }
                default -> throw new IllegalStateException("no vectorized comparison of " + s.type());
            }
        }
        v.text = String.join(" and ", text);
        v.selection = w.field("io.tessera.backend.jvm.lib.VectorFilter", sb.toString(), "vf");
        return v;
    }


    /** One comparison of a vectorized filter: its text, the column's segment field, its kind, operator and bound. */
    public record VectorTerm(String text, String segment, String kind, String op, String bound) {
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

        /**
         * Whether a NaN passes: a double column above a constant, since DuckDB's NaN is greater than every number
         * (the constant is never NaN: such a comparison is not vectorized).
         */
        boolean nanPasses() {
            return kind.equals("DOUBLE") && (op.equals("GT") || op.equals("GE"));
        }

        /** The Vector API class of a kind's values. */
        public static String vectorClass(String kind) {
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

    /**
     * The vectorized filter's rows of a morsel, compared in this query's own class: the JIT compiles and profiles
     * each query's compares apart, with the operator a constant. (Through the shared {@link VectorFilter}, whose
     * virtual call and operator switch every query's filters went through, Q1.2's vector filter ran 3x slower in a
     * process that had run Q1.1 first.) Columns on the heap (intermediate relations) go through the shared filter.
     */
    public String selectMethod() {
        StringBuilder m = new StringBuilder();
        m.append("\n    // FILTER (vectorized) ").append(GeneratedSource.comment(text)).append(": one bit per row of [from, to),\n");
        m.append("    // set when every comparison holds; 64 rows per word, a vector compare per lane group\n");
        m.append("    private long[] vectorSelect(long from, long to) {\n");
        m.append(w.fieldLocals);
        List<String> segments = terms.stream().map(VectorTerm::segment).distinct().toList();
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
        for (VectorTerm t : terms) {
            m.append("                if (word != 0) { // ").append(GeneratedSource.comment(t.text())).append('\n');
            m.append("                    long mask = 0;\n");
            m.append("                    for (int j = 0; j < 64; j += VS_").append(t.kind()).append(".length()) {\n");
            String load = "jdk.incubator.vector." + VectorTerm.vectorClass(t.kind()) + ".fromMemorySegment(VS_" + t.kind()
                    + ", " + t.segment() + ", (base + j) << " + t.shift() + ", java.nio.ByteOrder.LITTLE_ENDIAN)";
            String compare = ".compare(jdk.incubator.vector.VectorOperators." + t.op() + ", " + t.bound() + ")";
            if (t.nanPasses()) {
                m.append("                        final jdk.incubator.vector.DoubleVector v = ").append(load).append(";\n");
                m.append("                        mask |= v").append(compare)
                        .append(".or(v.test(jdk.incubator.vector.VectorOperators.IS_NAN)).toLong() << j;\n");
            } else {
                m.append("                        mask |= ").append(load).append("\n");
                m.append("                                ").append(compare).append(".toLong() << j;\n");
            }
            m.append("                    }\n");
            m.append("                    word &= mask;\n");
            m.append("                }\n");
        }
        m.append("            } else { // the morsel's last rows, one by one\n");
        m.append("                for (int j = 0; j < len; j++) {\n");
        m.append("                    final long r = base + j;\n");
        List<String> conds = new ArrayList<>();
        for (VectorTerm t : terms) {
            String value = t.segment() + ".get(" + t.kind() + ", r << " + t.shift() + ")";
            conds.add(t.nanPasses() ? "(" + value + " " + t.javaOp() + " " + t.bound() + " || " + value + " != " + value + ")"
                    : value + " " + t.javaOp() + " " + t.bound());
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
}
