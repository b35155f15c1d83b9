/**
 * The typed lowering of plan expressions that both expression generators print: what SQL's semantics decide about an
 * expression before any backend writes code for it. The scale and rescale factors of arithmetic and comparisons on
 * DECIMALs ({@link io.tessera.backend.lower.Scale}, {@link io.tessera.backend.lower.Arithmetic},
 * {@link io.tessera.backend.lower.Comparison}), which operations are checked for overflow and how
 * ({@link io.tessera.backend.lower.Arithmetic}, {@link io.tessera.backend.lower.NarrowRange}), the rules of every CAST
 * (range bounds, rounding mode: {@link io.tessera.backend.lower.Cast}), how a dictionary code is compared with a
 * constant string ({@link io.tessera.backend.lower.DictionaryBound}) and three-valued logic
 * ({@link io.tessera.backend.lower.Logic}), DuckDB's total order of doubles, NaN the greatest value
 * ({@link io.tessera.backend.lower.NanOrder}), and SUBSTRING and LENGTH over code points
 * ({@link io.tessera.backend.lower.Substrings}: the JVM's run time per row, the GPU's masks of codes per code), and
 * GREATEST and LEAST as a CASE for the generator without code of its own for them ({@link
 * io.tessera.backend.lower.Extremes}). The JVM backend's {@code ExprGen} and the CUDA backend's
 * {@code CudaExprGen} ask these classes and print Java or C; neither computes a SQL rule itself.
 *
 * <p>This package imports only {@code plan} and {@code storage}: it knows SQL types, not devices.
 */
package io.tessera.backend.lower;
