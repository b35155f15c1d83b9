/**
 * Device operators launched around generated kernels: the sorts of keys with row numbers ({@link
 * io.tessera.backend.cuda.ops.LargeSort}, {@link io.tessera.backend.cuda.ops.SmallSort}, their radix passes and
 * {@link io.tessera.backend.cuda.ops.SortMethod}), the compaction of group-table slots ({@link
 * io.tessera.backend.cuda.ops.SlotCompaction}) and the index of cache lines over a sorted join table ({@link
 * io.tessera.backend.cuda.ops.SearchIndex}). They use the driver and the compiled sort module, never the
 * generated code.
 */
package io.tessera.backend.cuda.ops;
