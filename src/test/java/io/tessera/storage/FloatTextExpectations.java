package io.tessera.storage;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.SplittableRandom;

/**
 * A tool, not a test: writes {@link FloatTextTest}'s expectations, DuckDB's text of REAL and DOUBLE values, one line
 * each ({@code R} or {@code D}, the value's bits in hex, DuckDB's {@code CAST(x AS VARCHAR)}). The values: every
 * power of two and a float's neighbours of each, the numbers nearest every power of ten and their neighbours,
 * subnormals, random bit patterns, and numbers of few digits as data holds them (where a REAL's shortest digits
 * often tie), all from a fixed seed. Run once with DuckDB's JDBC driver on the class path, after
 * {@code ./mvnw test-compile}:
 * {@code java -cp target/classes:target/test-classes:$HOME/.m2/repository/org/duckdb/duckdb_jdbc/2.0.0.1/duckdb_jdbc-2.0.0.1.jar
 * io.tessera.storage.FloatTextExpectations src/test/resources/io/tessera/storage/float-text-duckdb.txt}.
 */
public final class FloatTextExpectations {

    private FloatTextExpectations() {
    }

    public static void main(String[] args) throws IOException, SQLException {
        SplittableRandom random = new SplittableRandom(37);
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
             PreparedStatement real = duck.prepareStatement("SELECT ?::FLOAT::VARCHAR");
             PreparedStatement dbl = duck.prepareStatement("SELECT ?::DOUBLE::VARCHAR");
             PrintWriter out = new PrintWriter(Files.newBufferedWriter(Path.of(args[0]), StandardCharsets.UTF_8))) {
            for (int bits : floats(random)) {
                real.setFloat(1, Float.intBitsToFloat(bits));
                out.println("R " + Integer.toHexString(bits) + " " + text(real));
            }
            for (long bits : doubles(random)) {
                dbl.setDouble(1, Double.longBitsToDouble(bits));
                out.println("D " + Long.toHexString(bits) + " " + text(dbl));
            }
        }
    }

    private static String text(PreparedStatement p) throws SQLException {
        try (ResultSet rs = p.executeQuery()) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static LinkedHashSet<Integer> floats(SplittableRandom random) {
        LinkedHashSet<Integer> bits = new LinkedHashSet<>();
        for (float f : new float[] {0f, -0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
                Float.MAX_VALUE, Float.MIN_VALUE, Float.MIN_NORMAL, 1160166.25f, 241435008f, 0.1f, -2.5f}) {
            bits.add(Float.floatToRawIntBits(f));
        }
        for (int exponent = 0; exponent < 255; exponent++) {
            for (int step = -1; step <= 1; step++) {
                bits.add((exponent << 23) + step);
            }
        }
        for (int k = -45; k <= 38; k++) {
            int nearest = Float.floatToIntBits(Float.parseFloat("1e" + k));
            for (int step = -2; step <= 2; step++) {
                bits.add(nearest + step);
            }
        }
        for (int i = 0; i < 300; i++) {
            bits.add(random.nextInt(1, 1 << 23)); // subnormal
        }
        for (int i = 0; i < 2000; i++) {
            bits.add(random.nextInt());
        }
        for (int i = 0; i < 3000; i++) { // up to nine digits, around the units
            String digits = Long.toString(random.nextLong(1, 1_000_000_000L));
            bits.add(Float.floatToIntBits(Float.parseFloat(digits + "e" + random.nextInt(-12, 6))));
        }
        bits.removeIf(b -> Float.isNaN(Float.intBitsToFloat(b)) && b != Float.floatToRawIntBits(Float.NaN));
        return bits;
    }

    private static LinkedHashSet<Long> doubles(SplittableRandom random) {
        LinkedHashSet<Long> bits = new LinkedHashSet<>();
        for (double d : new double[] {0d, -0d, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                Double.MAX_VALUE, Double.MIN_VALUE, Double.MIN_NORMAL, 1e15, 1e16, 9999999999999998d, 1e-4, 1e-5,
                0.1, 1e23, 5e-324, 1e-323}) {
            bits.add(Double.doubleToRawLongBits(d));
        }
        for (long exponent = 1; exponent < 2047; exponent++) {
            bits.add(exponent << 52);
        }
        for (int k = -323; k <= 308; k++) {
            long nearest = Double.doubleToLongBits(Double.parseDouble("1e" + k));
            for (int step = -1; step <= 1; step++) {
                bits.add(nearest + step);
            }
        }
        for (int i = 0; i < 300; i++) {
            bits.add(random.nextLong(1, 1L << 52)); // subnormal
        }
        for (int i = 0; i < 2000; i++) {
            bits.add(random.nextLong());
        }
        for (int i = 0; i < 2000; i++) { // up to seventeen digits, anywhere
            String digits = Long.toString(random.nextLong(1, 100_000_000_000_000_000L));
            bits.add(Double.doubleToLongBits(Double.parseDouble(digits + "e" + random.nextInt(-330, 300))));
        }
        bits.removeIf(b -> Double.isNaN(Double.longBitsToDouble(b)) && b != Double.doubleToRawLongBits(Double.NaN));
        return bits;
    }
}
