package io.tessera.backend;

import io.tessera.exec.TinyTables;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;

/**
 * Two small tables with a column of every type for the expression queries of {@link EmittedSourceHashesTest} (whose CUDA kernels
 * {@code CudaQueryCompileTest} compiles):
 * {@code e}, every column nullable (every few rows a NULL), and {@code f}, every column NOT NULL.
 */
public final class ExpressionTables {

    /** Expression queries over table e (every column nullable) and table f (NOT NULL). */
    public static final List<String> QUERIES = List.of(
            "select i + b, i - d2, d2 * d4, d2 + d4, d4 - i, x * d2, x / i, i / j, i % j, b / i, b % 7 from e",
            "select -i, -d2, -x, abs(i), abs(d4), abs(x), i * 3 + 1, cast(d2 * d2 as decimal(18, 2)) from e",
            "select cast(i as bigint), cast(b as integer), cast(d2 as integer), cast(d4 as bigint), cast(x as integer),"
                    + " cast(x as bigint), cast(s as integer), cast(i as smallint), cast(b as tinyint) from e",
            "select cast(i as decimal(10, 2)), cast(b as decimal(18, 4)), cast(d2 as decimal(8, 1)), cast(d4 as decimal(15, 2)),"
                    + " cast(x as decimal(12, 3)), cast(s as decimal(9, 2)), cast(d2 as double), cast(i as double) from e",
            "select cast(i as varchar), cast(d2 as varchar), cast(x as varchar), cast(dt as varchar), cast(s as date),"
                    + " cast(i as boolean), cast(s as boolean), cast(bo as varchar) from e",
            "select count(*) from e where (i > 3 and b < 100) or (d2 > 1.5 and not bo) or s = 'v3'",
            "select count(*) from e where i is null or b is not null and (bo is true or bo is not false)",
            "select count(*) from e where bo is false or bo is not true or i is distinct from j or d2 is not distinct from d4",
            "select case when i > 5 then d2 when b > 10 then d4 else null end, case when bo then s else 'none' end,"
                    + " coalesce(i, j, 0), coalesce(d2, d4), coalesce(s, 'x') from e",
            "select count(*) from e where i in (1, 3, 5, 7) or s in ('v1', 'v2') or x in (1.5, 2.5) or s like 'v1%'",
            "select extract(year from dt), extract(month from dt), dt + interval '3' day, dt + interval '2' month,"
                    + " extract(day from dt) from e",
            "select s || 'x', lower(s), upper(s), count(*) from e group by s || 'x', lower(s), upper(s)",
            "select i, sum(d2), sum(x), avg(d4), min(s), max(dt), count(distinct b), count(j) from e group by i",
            "select sum(d2 * (1 - d4)), sum(case when bo then i end), count(case when s <> 'v2' then 1 end) from e where x < 9.5",
            "select s, count(*) from e where s < 'v5' and s >= 'v1' and s <> 'v3' group by s order by s limit 3",
            "select a + b2, a - c, c * d, c + d, d - a, y * c, y / a, a / g, a % g, b2 / a from f",
            "select -a, -c, -y, abs(a), abs(d), abs(y), cast(a as bigint), cast(c as bigint), cast(c as double),"
                    + " cast(a as decimal(12, 2)), cast(c as decimal(16, 3)), cast(a as boolean) from f",
            "select sum(c * (1 - d)), sum(a * 2), count(*) from f where (a > 3 and b2 < 100) or (c > 1.5 and not fb)"
                    + " or t = 'w3' or t like 'w1%' or a in (1, 2, 3) or t in ('w4', 'w5')",
            "select t, sum(case when a > 5 then c when b2 > 10 then d else 0 end), min(y), max(fd) from f"
                    + " where fd < date '2021-01-01' and t < 'w7' and t >= 'w1' group by t",
            "select sum(a) from f where fb is true or fb is not false or a is distinct from g or c is not distinct from d"
                    + " or a is not null");

    private ExpressionTables() {
    }

    public static void write(Path dir) {
        Object[][] e = new Object[64][];
        Object[][] f = new Object[64][];
        for (int r = 0; r < e.length; r++) {
            e[r] = new Object[] {
                    r % 7 == 3 ? null : r,
                    r % 5 == 1 ? null : r * 3 + 1,
                    r % 11 == 4 ? null : 1000L * r,
                    r % 6 == 2 ? null : BigDecimal.valueOf(r * 25, 2),
                    r % 9 == 5 ? null : BigDecimal.valueOf(r * 1234, 4),
                    r % 8 == 6 ? null : r * 0.5,
                    r % 10 == 7 ? null : LocalDate.of(2020, 1, 1).plusDays(r * 9),
                    r % 4 == 0 ? null : r % 3 == 0,
                    r % 13 == 5 ? null : "v" + (r % 10)};
            f[r] = new Object[] {
                    r, r * 2 + 1, 1000L * r, BigDecimal.valueOf(r * 25, 2), BigDecimal.valueOf(r * 7, 2), r * 0.25,
                    LocalDate.of(2020, 1, 1).plusDays(r * 11), r % 3 == 0, "w" + (r % 10)};
        }
        TinyTables.write(dir, "e", "i INTEGER, j INTEGER, b BIGINT, d2 DECIMAL(12, 2), d4 DECIMAL(15, 4), x DOUBLE,"
                + " dt DATE, bo BOOLEAN, s VARCHAR", e);
        TinyTables.write(dir, "f", "a INTEGER NOT NULL, g INTEGER NOT NULL, b2 BIGINT NOT NULL, c DECIMAL(12, 2) NOT NULL,"
                + " d DECIMAL(15, 2) NOT NULL, y DOUBLE NOT NULL, fd DATE NOT NULL, fb BOOLEAN NOT NULL,"
                + " t VARCHAR NOT NULL", f);
    }
}
