/**
 * Scheduling: one pipeline's run ({@link io.tessera.backend.jvm.run.PipelineRunner}): its inputs bound, its
 * rows run in morsels on the workers ({@link io.tessera.backend.jvm.run.MorselRunner}) or in a tuner's blocks
 * ({@link io.tessera.backend.jvm.run.BlockRunner}), its sink's end handed to its operator family
 * ({@link io.tessera.backend.jvm.run.SinkFinisher}), relations completed and published on the host
 * ({@link io.tessera.backend.jvm.run.JvmRelations}).
 */
package io.tessera.backend.jvm.run;
