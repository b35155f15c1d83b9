package io.tessera.difftest;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Random join queries of 4 to 8 relations over TPC-H, along its foreign keys: each new relation is the referenced
 * side of a key of one already there (so a query's rows stay at most those of its first relation times one
 * expansion), the composite lineitem-partsupp key included; a relation joined again by a second key closes a cycle
 * (lineitem and partsupp meeting the same part, a customer and a supplier of the same nation); tables appear under
 * several aliases (two nations, two lineitems). Every relation may get a filter (ranges, IN lists, LIKE prefixes,
 * an OR over its own columns), some pairs a condition across both, and the output is grouped and aggregated or a
 * projection. With {@code outerAndSubqueries}, LEFT joins and EXISTS, NOT EXISTS, IN and NOT IN subqueries are mixed
 * in. Each query is also rendered with its relations and conjuncts shuffled, which must not change its answer.
 */
final class TpchJoinQueryGenerator {

    /** A foreign key: {@code from}'s columns reference {@code to}'s. */
    private record Key(String from, List<String> fromCols, String to, List<String> toCols) {
    }

    private static final List<Key> KEYS = List.of(
            key("lineitem", "l_orderkey", "orders", "o_orderkey"),
            key("lineitem", "l_partkey", "part", "p_partkey"),
            key("lineitem", "l_suppkey", "supplier", "s_suppkey"),
            new Key("lineitem", List.of("l_partkey", "l_suppkey"), "partsupp", List.of("ps_partkey", "ps_suppkey")),
            key("partsupp", "ps_partkey", "part", "p_partkey"),
            key("partsupp", "ps_suppkey", "supplier", "s_suppkey"),
            key("orders", "o_custkey", "customer", "c_custkey"),
            key("customer", "c_nationkey", "nation", "n_nationkey"),
            key("supplier", "s_nationkey", "nation", "n_nationkey"),
            key("nation", "n_regionkey", "region", "r_regionkey"));

    /** Keys followed backwards at most once per query: each row of the referenced side meets a few rows. */
    private static final List<Key> FAN_OUT = List.of(KEYS.get(0), KEYS.get(4), KEYS.get(6));

    private static Key key(String from, String fromCol, String to, String toCol) {
        return new Key(from, List.of(fromCol), to, List.of(toCol));
    }

    /** One relation of a query: a table under an alias. */
    record Rel(String table, String alias) {
    }

    /** A generated query: its text, the same query with relations and conjuncts shuffled, and its relations. */
    record Generated(String sql, String shuffled, int relations, long seed) {
    }

    private final boolean outerAndSubqueries;

    TpchJoinQueryGenerator(boolean outerAndSubqueries) {
        this.outerAndSubqueries = outerAndSubqueries;
    }

    /** {@code count} queries, the i-th from seed {@code seed + i}. */
    List<Generated> generate(long seed, int count) {
        List<Generated> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(generate(seed + i));
        }
        return out;
    }

    Generated generate(long seed) {
        Random rnd = new Random(seed);
        while (true) {
            Query q = new Query();
            if (build(q, rnd)) {
                return new Generated(q.render(null), q.render(new Random(seed * 31 + 7)), q.rels.size(), seed);
            }
        }
    }

    /** The parts of a query, rendered as text at the end. */
    private static final class Query {
        final List<Rel> rels = new ArrayList<>();
        /** Per relation (by index), the equalities that join it to earlier ones. */
        final List<List<String>> joinConds = new ArrayList<>();
        /** Conditions of the WHERE clause besides the joins': filters, conditions across tables, subqueries. */
        final List<String> where = new ArrayList<>();
        /** LEFT-joined relations with their ON conditions, after every inner one. */
        final List<Rel> outer = new ArrayList<>();
        final List<String> outerOn = new ArrayList<>();
        final List<String> select = new ArrayList<>();
        final List<String> groupBy = new ArrayList<>();
        String orderByLimit = "";
        int aliasCount;

        Rel add(String table) {
            Rel r = new Rel(table, abbreviation(table) + (++aliasCount));
            rels.add(r);
            joinConds.add(new ArrayList<>());
            return r;
        }

        Rel find(String table) {
            for (Rel r : rels) {
                if (r.table.equals(table)) {
                    return r;
                }
            }
            return null;
        }

        /**
         * The text: comma joins with every condition in WHERE, or (with a LEFT join) inner joins each ON its
         * equalities with earlier relations, then the LEFT joins. {@code shuffle}: relations of a comma join and
         * the WHERE conjuncts in a random order.
         */
        String render(Random shuffle) {
            StringBuilder sb = new StringBuilder("SELECT ").append(String.join(", ", select)).append("\nFROM ");
            List<String> conds = new ArrayList<>();
            if (outer.isEmpty()) {
                List<String> from = new ArrayList<>();
                for (int i = 0; i < rels.size(); i++) {
                    from.add(rels.get(i).table + " " + rels.get(i).alias);
                    conds.addAll(joinConds.get(i));
                }
                if (shuffle != null) {
                    Collections.shuffle(from, shuffle);
                }
                sb.append(String.join(", ", from));
            } else {
                for (int i = 0; i < rels.size(); i++) {
                    Rel r = rels.get(i);
                    if (i == 0) {
                        sb.append(r.table).append(' ').append(r.alias);
                    } else {
                        List<String> on = new ArrayList<>(joinConds.get(i));
                        if (shuffle != null) {
                            Collections.shuffle(on, shuffle);
                        }
                        sb.append("\n  JOIN ").append(r.table).append(' ').append(r.alias).append(" ON ")
                                .append(String.join(" AND ", on));
                    }
                }
                for (int i = 0; i < outer.size(); i++) {
                    sb.append("\n  LEFT JOIN ").append(outer.get(i).table).append(' ').append(outer.get(i).alias)
                            .append(" ON ").append(outerOn.get(i));
                }
            }
            conds.addAll(where);
            if (shuffle != null) {
                Collections.shuffle(conds, shuffle);
            }
            if (!conds.isEmpty()) {
                sb.append("\nWHERE ").append(String.join("\n  AND ", conds));
            }
            if (!groupBy.isEmpty()) {
                sb.append("\nGROUP BY ").append(String.join(", ", groupBy));
            }
            return sb.append(orderByLimit).toString();
        }
    }

    private static String abbreviation(String table) {
        return switch (table) {
            case "lineitem" -> "l";
            case "orders" -> "o";
            case "customer" -> "c";
            case "supplier" -> "s";
            case "partsupp" -> "ps";
            case "part" -> "p";
            case "nation" -> "n";
            default -> "r";
        };
    }

    private static final String[] ROOTS = {"lineitem", "lineitem", "lineitem", "lineitem", "orders", "orders",
        "partsupp", "partsupp", "customer"};

    /** Fills {@code q}; false when its relations stayed fewer than four (the caller draws again). */
    private boolean build(Query q, Random rnd) {
        int target = 4 + rnd.nextInt(5);
        q.add(ROOTS[rnd.nextInt(ROOTS.length)]);
        boolean fannedOut = false;
        for (int attempt = 0; attempt < 40 && q.rels.size() < target; attempt++) {
            int from = rnd.nextInt(q.rels.size());
            Rel r = q.rels.get(from);
            if (!fannedOut && rnd.nextInt(6) == 0) {
                Key k = FAN_OUT.get(rnd.nextInt(FAN_OUT.size()));
                if (k.to.equals(r.table)) {
                    Rel added = q.add(k.from);
                    q.joinConds.getLast().addAll(equalities(k, added, r));
                    fannedOut = true;
                }
                continue;
            }
            List<Key> keys = KEYS.stream().filter(k -> k.from.equals(r.table)).toList();
            if (keys.isEmpty()) {
                continue;
            }
            Key k = keys.get(rnd.nextInt(keys.size()));
            Rel existing = q.find(k.to);
            int existingIndex = existing == null ? -1 : q.rels.indexOf(existing);
            if (existing != null && existingIndex != from && rnd.nextInt(3) == 0) {
                // a second key into a relation already there: a cycle in the join graph
                List<String> eq = equalities(k, r, existing);
                int later = Math.max(from, existingIndex);
                if (!q.joinConds.get(later).containsAll(eq)) {
                    q.joinConds.get(later).addAll(eq);
                }
                continue;
            }
            Rel added = q.add(k.to);
            q.joinConds.getLast().addAll(equalities(k, r, added));
        }
        if (q.rels.size() < 4) {
            return false;
        }
        Rel c = q.find("customer");
        Rel s = q.find("supplier");
        if (c != null && s != null && rnd.nextInt(2) == 0) {
            // a customer and a supplier of the same nation (TPC-H Q5), not a foreign key: another cycle
            int later = Math.max(q.rels.indexOf(c), q.rels.indexOf(s));
            q.joinConds.get(later).add(c.alias + ".c_nationkey = " + s.alias + ".s_nationkey");
        }
        TpchJoinPredicates preds = new TpchJoinPredicates(rnd);
        // a few filters, so that most queries keep some rows at SF 0.01
        int filters = 1 + rnd.nextInt(3);
        for (int f = 0; f < filters; f++) {
            q.where.add(preds.filter(q.rels.get(rnd.nextInt(q.rels.size()))));
        }
        int acrossLeft = rnd.nextInt(3);
        for (int i = 0; i < q.rels.size() && acrossLeft > 0; i++) {
            for (int j = i + 1; j < q.rels.size() && acrossLeft > 0; j++) {
                String across = preds.across(q.rels.get(i), q.rels.get(j));
                if (across != null && rnd.nextInt(3) == 0) {
                    q.where.add(across);
                    acrossLeft--;
                }
            }
        }
        if (outerAndSubqueries) {
            addOuterAndSubqueries(q, rnd, preds);
        }
        output(q, rnd);
        return true;
    }

    /** The equalities of key {@code k} from relation {@code from} (of table k.from) to {@code to} (of k.to). */
    private static List<String> equalities(Key k, Rel from, Rel to) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < k.fromCols.size(); i++) {
            out.add(from.alias + "." + k.fromCols.get(i) + " = " + to.alias + "." + k.toCols.get(i));
        }
        return out;
    }

    /** One or two of: a LEFT join along a key, EXISTS / NOT EXISTS, IN / NOT IN. */
    private void addOuterAndSubqueries(Query q, Random rnd, TpchJoinPredicates preds) {
        int extras = 1 + rnd.nextInt(2);
        // every subquery of a query correlates with one relation: Calcite's SqlToRelConverter asserts that the
        // correlation variables of a WHERE clause resolve to one namespace (it answers right without -ea)
        Rel correlated = q.rels.get(rnd.nextInt(q.rels.size()));
        for (int e = 0; e < extras; e++) {
            Rel r = q.rels.get(rnd.nextInt(q.rels.size()));
            if (rnd.nextInt(3) == 0 && q.outer.isEmpty()) {
                List<Key> keys = KEYS.stream().filter(k -> k.from.equals(r.table)).toList();
                if (!keys.isEmpty()) {
                    Key k = keys.get(rnd.nextInt(keys.size()));
                    Rel added = new Rel(k.to, abbreviation(k.to) + (++q.aliasCount));
                    // the ON filter leaves some rows without a match; the WHERE may keep only those
                    String on = String.join(" AND ", equalities(k, r, added)) + " AND " + preds.filter(added);
                    q.outer.add(added);
                    q.outerOn.add(on);
                    if (rnd.nextInt(3) == 0) {
                        q.where.add(added.alias + "." + k.toCols.getFirst() + " IS NULL");
                    }
                    continue;
                }
            }
            String sub = preds.subquery(correlated, ++q.aliasCount);
            if (sub != null) {
                q.where.add(sub);
            }
        }
    }

    /** Grouped aggregates, or a projection (sometimes ordered by every column and cut by a LIMIT). */
    private static void output(Query q, Random rnd) {
        List<Rel> all = new ArrayList<>(q.rels);
        all.addAll(q.outer);
        if (rnd.nextInt(5) < 3) {
            int groups = rnd.nextInt(3);
            for (int g = 0; g < groups; g++) {
                Rel r = all.get(rnd.nextInt(all.size()));
                String col = r.alias + "." + TpchJoinPredicates.groupColumn(r.table, rnd);
                if (!q.groupBy.contains(col)) {
                    q.groupBy.add(col);
                    q.select.add(col);
                }
            }
            q.select.add("COUNT(*) AS n");
            Rel m = q.rels.get(rnd.nextInt(q.rels.size()));
            q.select.add("SUM(" + m.alias + "." + TpchJoinPredicates.measure(m.table, rnd) + ") AS total");
            Rel x = all.get(rnd.nextInt(all.size()));
            String mm = rnd.nextBoolean() ? "MIN" : "MAX";
            q.select.add(mm + "(" + x.alias + "." + TpchJoinPredicates.measure(x.table, rnd) + ") AS extreme");
            if (!q.outer.isEmpty()) {
                Rel o = q.outer.getFirst();
                q.select.add("COUNT(" + o.alias + "." + TpchJoinPredicates.measure(o.table, rnd) + ") AS matched");
            }
        } else {
            int cols = 2 + rnd.nextInt(3);
            for (int i = 0; i < cols; i++) {
                Rel r = all.get(rnd.nextInt(all.size()));
                String col = r.alias + "." + TpchJoinPredicates.anyColumn(r.table, rnd);
                if (!q.select.contains(col)) {
                    q.select.add(col);
                }
            }
            if (rnd.nextBoolean()) {
                List<String> keys = new ArrayList<>();
                for (String col : q.select) {
                    keys.add(col + " NULLS LAST");
                }
                q.orderByLimit = "\nORDER BY " + String.join(", ", keys) + "\nLIMIT " + (10 + rnd.nextInt(90));
            }
        }
    }
}
