package io.tessera.storage;

import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.DoubleFunction;

/**
 * Nanoseconds and bytes allocated per value of {@link FloatText} beside the JDK's {@code Double.toString} and
 * {@code Float.toString} and beside the text Tessera wrote before (the JDK's digits read into a BigDecimal and laid
 * out), warm, in one JVM, over random bit patterns and over numbers of few digits as data holds them. Run after
 * {@code ./mvnw test-compile}:
 * {@code java -cp target/classes:target/test-classes io.tessera.storage.FloatTextBenchmark [VALUES] [ROUNDS]}.
 */
public final class FloatTextBenchmark {

    private FloatTextBenchmark() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        SplittableRandom random = new SplittableRandom(3);
        double[] anyDouble = new double[n];
        double[] dataDouble = new double[n];
        double[] anyFloat = new double[n];
        double[] dataFloat = new double[n];
        for (int i = 0; i < n; i++) {
            double d;
            do {
                d = Double.longBitsToDouble(random.nextLong());
            } while (!Double.isFinite(d));
            anyDouble[i] = d;
            dataDouble[i] = random.nextLong(1, 10_000_000_000L) / 100.0;
            float f;
            do {
                f = Float.intBitsToFloat(random.nextInt());
            } while (!Float.isFinite(f));
            anyFloat[i] = f;
            dataFloat[i] = (float) (random.nextInt(1, 100_000_000) / 100.0);
        }
        for (int round = 0; round < rounds; round++) {
            System.out.println("round " + (round + 1));
            measure("DOUBLE any   FloatText", anyDouble, FloatText::ofDouble);
            measure("DOUBLE any   before   ", anyDouble, FloatTextBenchmark::before);
            measure("DOUBLE any   JDK      ", anyDouble, Double::toString);
            measure("DOUBLE data  FloatText", dataDouble, FloatText::ofDouble);
            measure("DOUBLE data  before   ", dataDouble, FloatTextBenchmark::before);
            measure("DOUBLE data  JDK      ", dataDouble, Double::toString);
            measure("REAL   any   FloatText", anyFloat, FloatText::ofReal);
            measure("REAL   any   JDK      ", anyFloat, v -> Float.toString((float) v));
            measure("REAL   data  FloatText", dataFloat, FloatText::ofReal);
            measure("REAL   data  JDK      ", dataFloat, v -> Float.toString((float) v));
        }
    }

    private static void measure(String name, double[] values, DoubleFunction<String> text) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long bytes = threads.getCurrentThreadAllocatedBytes();
        long start = System.nanoTime();
        long sum = 0;
        for (double v : values) {
            sum += text.apply(v).length();
        }
        long nanos = System.nanoTime() - start;
        bytes = threads.getCurrentThreadAllocatedBytes() - bytes;
        System.out.printf(Locale.ROOT, "  %s %6.1f ns  %5.1f bytes per value (%d chars)%n", name,
                (double) nanos / values.length, (double) bytes / values.length, sum);
    }

    /** A DOUBLE's text as Tessera wrote it before FloatText: the JDK's shortest digits laid out through BigDecimal. */
    private static String before(double d) {
        BigDecimal v = new BigDecimal(Double.toString(Math.abs(d))).stripTrailingZeros();
        String digits = v.unscaledValue().toString();
        int exp = digits.length() - 1 - v.scale();
        String sign = d < 0 ? "-" : "";
        if (exp >= -4 && exp < 16) {
            String plain = v.toPlainString();
            return sign + (plain.indexOf('.') < 0 ? plain + ".0" : plain);
        }
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        int e = Math.abs(exp);
        return sign + mantissa + "e" + (exp < 0 ? "-" : "+") + (e < 10 ? "0" : "") + e;
    }
}
