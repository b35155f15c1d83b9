package io.tessera.backend.lower;

import io.tessera.plan.Expr;
import io.tessera.plan.Op;
import io.tessera.storage.DataType;
import org.junit.jupiter.api.Test;

import java.math.RoundingMode;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The decisions of the shared typed lowering that both expression generators print. */
class LoweringTest {

    private static final DataType D12_2 = DataType.decimal(12, 2);
    private static final DataType D15_4 = DataType.decimal(15, 4);

    private static Expr.Call call(Op op, DataType result, DataType a, DataType b) {
        return new Expr.Call(op, List.of(new Expr.Literal(1L, a), new Expr.Literal(1L, b)), result, false, null);
    }

    @Test
    void decimalArithmeticRescalesOperandsAndProducts() {
        Arithmetic add = Arithmetic.of(call(Op.ADD, D15_4, D12_2, D15_4));
        assertEquals(Arithmetic.Domain.DECIMAL_ADD, add.domain());
        assertEquals(2, add.leftShift());
        assertEquals(0, add.rightShift());
        Arithmetic mul = Arithmetic.of(call(Op.MUL, DataType.decimal(18, 4), D12_2, D12_2));
        assertEquals(Arithmetic.Domain.DECIMAL_MUL, mul.domain());
        assertEquals(0, mul.productShift());
        assertEquals(-2, Arithmetic.of(call(Op.MUL, D12_2, D12_2, D12_2)).productShift());
        assertTrue(mul.checked());
        assertFalse(Arithmetic.of(call(Op.MUL, DataType.DOUBLE, DataType.DOUBLE, D12_2)).checked());
        assertThrows(Unsupported.class, () -> Arithmetic.of(call(Op.DIV, D12_2, D12_2, D12_2)));
        assertTrue(Arithmetic.of(call(Op.MOD, DataType.INTEGER, DataType.INTEGER, DataType.INTEGER)).dividesExactly());
    }

    @Test
    void comparisonsMeetAtTheLargerScale() {
        Comparison c = Comparison.of(D12_2, D15_4);
        assertEquals(Comparison.Domain.DECIMAL, c.domain());
        assertEquals(4, c.commonScale());
        assertEquals(Comparison.Domain.DOUBLE, Comparison.of(D12_2, DataType.DOUBLE).domain());
        assertEquals(Comparison.Domain.STRING, Comparison.of(DataType.VARCHAR, DataType.VARCHAR).domain());
    }

    @Test
    void castsRoundAndCheckByTheirSourceAndTarget() {
        Cast decimalToInt = Cast.of(D12_2, DataType.INTEGER);
        assertEquals(Cast.Conversion.ROUND, decimalToInt.conversion());
        assertEquals(RoundingMode.HALF_UP, decimalToInt.rounding()); // half away from zero
        assertEquals(-2, decimalToInt.shift());
        assertTrue(decimalToInt.canLeaveRange());
        assertFalse(Cast.of(D12_2, DataType.BIGINT).canLeaveRange());
        Cast doubleToInt = Cast.of(DataType.DOUBLE, DataType.INTEGER);
        assertEquals(RoundingMode.HALF_EVEN, doubleToInt.rounding());
        assertEquals(Integer.MIN_VALUE, doubleToInt.min());
        assertEquals(Integer.MAX_VALUE, doubleToInt.max());
        assertEquals(Cast.Conversion.WIDEN, Cast.of(DataType.INTEGER, DataType.BIGINT).conversion());
        assertEquals(Cast.Conversion.CHECK_RANGE, Cast.of(DataType.BIGINT, DataType.SMALLINT).conversion());
        assertEquals(Cast.Conversion.RESCALE, Cast.of(DataType.INTEGER, D15_4).conversion());
        assertEquals(Cast.Conversion.RESCALE_CHECKED, Cast.of(DataType.BIGINT, D15_4).conversion());
        assertEquals(Cast.Conversion.RESCALE_CHECKED, Cast.of(D15_4, D12_2).conversion());
        // fewer decimals with an integer digit to spare: rounding cannot leave the range
        assertEquals(Cast.Conversion.RESCALE, Cast.of(DataType.decimal(18, 6), DataType.decimal(18, 2)).conversion());
        assertFalse(Cast.of(DataType.decimal(18, 6), DataType.decimal(18, 2)).canLeaveRange());
        // 99.99 as DECIMAL(4,2) rounds to 100.0, which DECIMAL(3,1) cannot hold
        assertEquals(Cast.Conversion.RESCALE_CHECKED, Cast.of(DataType.decimal(4, 2), DataType.decimal(3, 1)).conversion());
        assertThrows(Unsupported.class, () -> Cast.of(DataType.BOOLEAN, D12_2));
        assertThrows(Unsupported.class, () -> Cast.of(DataType.INTEGER, DataType.DATE));
    }

    @Test
    void codesCompareWithBoundsOfTheOrderPreservingDictionary() {
        assertEquals(new DictionaryBound(DictionaryBound.Lookup.UPPER_BOUND, Op.LT), DictionaryBound.of(Op.LE));
        assertEquals(new DictionaryBound(DictionaryBound.Lookup.UPPER_BOUND, Op.GE), DictionaryBound.of(Op.GT));
        assertEquals("lowerBound", DictionaryBound.of(Op.GE).method());
    }

    @Test
    void threeValuedLogic() {
        assertFalse(Logic.Connective.AND.decisive);
        assertTrue(Logic.Connective.OR.decisive);
        assertEquals(new Logic.Test(true, Logic.OnValue.NEGATED), Logic.test(Op.IS_NOT_TRUE));
        assertEquals(new Logic.Test(false, Logic.OnValue.NEGATED), Logic.test(Op.IS_FALSE));
        assertEquals(new Logic.Test(true, Logic.OnValue.FALSE), Logic.test(Op.IS_NULL));
    }
}
