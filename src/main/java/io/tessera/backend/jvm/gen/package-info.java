/**
 * Generation of a pipeline's Java class: the driver ({@link io.tessera.backend.jvm.gen.PipelineEmitter}) walks the
 * pipeline and calls each operator family's emitter, which writes into the
 * {@link io.tessera.backend.jvm.gen.PipelineWriter}; expressions are printed by
 * {@link io.tessera.backend.jvm.gen.ExprGen}; {@link io.tessera.backend.jvm.gen.JavaCompiler} compiles the class,
 * which extends {@link io.tessera.backend.jvm.gen.PipelineCode}.
 */
package io.tessera.backend.jvm.gen;
