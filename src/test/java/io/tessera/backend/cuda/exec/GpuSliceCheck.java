package io.tessera.backend.cuda.exec;

import io.tessera.Tessera;
import io.tessera.api.QueryCancel;
import io.tessera.api.QueryResult;
import io.tessera.api.ResultColumn;
import io.tessera.api.RowSink;
import io.tessera.api.TableSlice;
import io.tessera.bench.Queries;
import io.tessera.exec.Device;
import io.tessera.storage.Table;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * On a GPU machine: queries over slices of lineorder (what each task of the Spark connector runs, docs/SPARK.md) run
 * on the GPU, and their sums, added up over slices that tile the table, are the whole table's sums on the JVM.
 * {@code java -cp tessera.jar:lib/*:test-classes io.tessera.backend.cuda.exec.GpuSliceCheck SSB_DB [SLICES]};
 * exits 1 on a failure.
 */
public final class GpuSliceCheck {

    private GpuSliceCheck() {
    }

    /** A query and which of its result columns are sums or counts (added up over slices); the rest are keys. */
    private record Check(String name, String sql, int[] additive) {
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        int slices = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        List<Check> checks = List.of(
                new Check("shipmode", "select lo_shipmode, sum(lo_revenue), count(*) from lineorder"
                        + " where lo_discount > 2 group by lo_shipmode", new int[] {1, 2}),
                new Check("q1.1", Queries.sql("ssb", "q1.1"), new int[] {0}),
                new Check("q2.1", Queries.sql("ssb", "q2.1"), new int[] {0}),
                new Check("q3.1", Queries.sql("ssb", "q3.1"), new int[] {3}),
                new Check("q4.1", Queries.sql("ssb", "q4.1"), new int[] {2}));
        boolean ok = true;
        try (Tessera gpu = Tessera.open(dir, Device.GPU); Tessera jvm = Tessera.open(dir, Device.CPU)) {
            Table lineorder = gpu.database().table("lineorder");
            long step = Math.max(64, lineorder.rowCount() / slices / 64 * 64);
            for (Check c : checks) {
                Map<String, BigDecimal[]> parts = new TreeMap<>();
                List<String> devices = new ArrayList<>();
                for (long from = 0; from < lineorder.rowCount(); from += step) {
                    long to = Math.min(lineorder.rowCount(), from + step);
                    QueryResult r = gpu.query(c.sql(), new QueryCancel(), new RowSink() {
                        @Override
                        public void start(List<ResultColumn> columns) {
                        }

                        @Override
                        public void rows(List<Object[]> batch) {
                            batch.forEach(row -> add(parts, row, c.additive()));
                        }
                    }, new TableSlice("lineorder", from, to, lineorder.generation()));
                    devices.add(r.execution().device());
                    if (r.execution().device().equals("cpu")) {
                        ok = false;
                        System.out.println("FAIL: " + c.name() + " rows " + from + ".." + to + " ran on the JVM: "
                                + r.execution().notice());
                    }
                }
                Map<String, BigDecimal[]> whole = new TreeMap<>();
                jvm.query(c.sql()).rows().forEach(row -> add(whole, row, c.additive()));
                boolean same = whole.keySet().equals(parts.keySet());
                for (Map.Entry<String, BigDecimal[]> e : whole.entrySet()) {
                    same &= parts.containsKey(e.getKey()) && Arrays.equals(e.getValue(), parts.get(e.getKey()));
                }
                ok &= same;
                System.out.println((same ? "PASS " : "FAIL ") + c.name() + ": " + devices.size() + " slices on "
                        + devices + ", " + whole.size() + " groups");
            }
        }
        System.out.println(ok ? "slices on the GPU add up to the whole table" : "FAIL: see above");
        System.exit(ok ? 0 : 1);
    }

    private static void add(Map<String, BigDecimal[]> into, Object[] row, int[] additive) {
        List<Object> key = new ArrayList<>(Arrays.asList(row));
        BigDecimal[] sums = new BigDecimal[additive.length];
        for (int i = additive.length - 1; i >= 0; i--) {
            Object v = row[additive[i]];
            sums[i] = v == null ? BigDecimal.ZERO : new BigDecimal(v.toString());
            key.remove(additive[i]);
        }
        into.merge(key.toString(), sums, (a, b) -> {
            BigDecimal[] out = new BigDecimal[a.length];
            for (int i = 0; i < a.length; i++) {
                out[i] = a[i].add(b[i]);
            }
            return out;
        });
    }
}
