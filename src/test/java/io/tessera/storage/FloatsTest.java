package io.tessera.storage;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A REAL's text beside DuckDB's CAST of the same FLOAT to VARCHAR, and the range check of a conversion to REAL. */
class FloatsTest {

    @Test
    void textIsDuckDbsForFloatsOfFewDigits() throws Exception {
        SplittableRandom r = new SplittableRandom(11);
        List<Float> values = new ArrayList<>(List.of(0.1f, 1e10f, 1e16f, 1e15f, 1e-4f, 1e-5f, 123456789f, 16777216f,
                Float.MAX_VALUE, Float.MIN_VALUE, Float.MIN_NORMAL, -2.5f, 0.0f, -0.0f, 1.0f, 100f, 3.4e38f));
        for (int i = 0; i < 2000; i++) {
            // what data files hold: up to 6 significant digits, below a million (see the next test for beyond)
            values.add(Float.parseFloat(r.nextInt(-999_999, 1_000_000) + "e" + r.nextInt(-40, 1)));
        }
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
             PreparedStatement p = duck.prepareStatement("SELECT ?::FLOAT::VARCHAR")) {
            for (float f : values) {
                assertEquals(duckText(p, f), Floats.format(f), "float bits " + Integer.toHexString(
                        Float.floatToRawIntBits(f)));
            }
        }
    }

    /**
     * Any float, digit for digit: also where DuckDB's text is not the float's shortest (1435166.25, where 1435166.2
     * reads back too), being the double's the float widens to ({@link FloatText}).
     */
    @Test
    void textOfAnyFloatIsDuckDbs() throws Exception {
        SplittableRandom r = new SplittableRandom(5);
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
             PreparedStatement p = duck.prepareStatement("SELECT ?::FLOAT::VARCHAR")) {
            for (int i = 0; i < 2000; i++) {
                float f = Float.intBitsToFloat(r.nextInt());
                float data = Float.parseFloat(r.nextInt(1, 1_000_000_000) + "e" + r.nextInt(-6, 3));
                for (float v : new float[] {f, data}) {
                    assertEquals(duckText(p, v), Floats.format(v), "float bits " + Integer.toHexString(
                            Float.floatToRawIntBits(v)));
                }
            }
        }
    }

    private static String duckText(PreparedStatement p, float f) throws java.sql.SQLException {
        p.setFloat(1, f);
        try (ResultSet rs = p.executeQuery()) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void aDoubleBeyondFloatsRangeFailsItsConversionAndInfinityStays() {
        ArithmeticException e = assertThrows(ArithmeticException.class, () -> Floats.converted(1e40));
        assertEquals(Values.outOfRangeMessage("1e+40", "FLOAT"), e.getMessage());
        assertEquals(Double.POSITIVE_INFINITY, Floats.converted(Double.POSITIVE_INFINITY));
        assertEquals(0.10000000149011612, Floats.converted(0.1));
        assertEquals(Float.MAX_VALUE, Floats.converted(3.4028235e38)); // below the midpoint to infinity
    }
}
