package io.tessera.backend.jvm.lib;

import io.tessera.storage.ListCodec;

/**
 * A list's numbers reduced by an aggregate (LIST_SUM, LIST_AGGREGATE, ...): elements read from their texts (integers
 * and DECIMALs, unscaled, as longs; DOUBLEs as doubles), the result as the text of the result type's value (a
 * DECIMAL's unscaled), or null where the aggregate is NULL (no elements that are not NULL; COUNT is then 0).
 */
public final class ListAggregateRuntime {

    private ListAggregateRuntime() {
    }

    /**
     * @param doubles whether the elements are DOUBLEs
     * @param scale   the elements' DECIMAL scale (0 for integers)
     */
    public static String aggregate(String list, String name, boolean doubles, int scale) {
        long count = 0;
        long longSum = 0;
        double doubleSum = 0;
        double product = 1;
        long longMin = Long.MAX_VALUE;
        long longMax = Long.MIN_VALUE;
        double doubleMin = Double.NaN;
        double doubleMax = Double.NaN;
        double unit = Math.pow(10, scale);
        for (String t : ListCodec.texts(list)) {
            if (t == null) {
                continue;
            }
            if (doubles) {
                double v = Double.parseDouble(t);
                doubleSum += v;
                product *= v;
                doubleMin = count == 0 || v < doubleMin ? v : doubleMin;
                doubleMax = count == 0 || v > doubleMax ? v : doubleMax;
            } else {
                long v = Long.parseLong(t);
                longSum = Math.addExact(longSum, v);
                doubleSum += v / unit;
                product *= v / unit;
                longMin = Math.min(longMin, v);
                longMax = Math.max(longMax, v);
            }
            count++;
        }
        if (name.equals("count")) {
            return Long.toString(count);
        }
        if (count == 0) {
            return null;
        }
        return switch (name) {
            case "sum" -> doubles ? Double.toString(doubleSum) : Long.toString(longSum);
            case "avg" -> Double.toString(doubles ? doubleSum / count
                    : java.math.BigDecimal.valueOf(longSum, scale).divide(java.math.BigDecimal.valueOf(count),
                    java.math.MathContext.DECIMAL64).doubleValue());
            case "product" -> Double.toString(product);
            case "min" -> doubles ? Double.toString(doubleMin) : Long.toString(longMin);
            case "max" -> doubles ? Double.toString(doubleMax) : Long.toString(longMax);
            default -> throw new IllegalArgumentException("no list aggregate " + name);
        };
    }
}
