/**
 * The host's own work, which every device's results end in, and none of it generated code: the {@link
 * io.tessera.backend.host.Host} (the device that runs every pipeline, publishes VALUES, completes relations whose
 * writers left parts, and gives the result), the one loop that runs a query's pipelines on their devices ({@link
 * io.tessera.backend.host.PipelineLoop}), which the executor and the JVM tuners' runs share; rows on the host
 * ({@link io.tessera.backend.host.RowBuffer}, a writer's {@link io.tessera.backend.host.RelationPart}, a finished
 * {@link io.tessera.backend.host.MatRelation}, which reads its values out as the {@link
 * io.tessera.backend.host.ResultRelation}), relations published, concatenated, cut to a LIMIT and made from VALUES
 * ({@link io.tessera.backend.host.HostRelations}), rows copied and gathered on the host's threads ({@link
 * io.tessera.backend.host.RowCopies}, {@link io.tessera.backend.host.RowGather}, {@link
 * io.tessera.backend.host.HostWorkers}, {@link io.tessera.backend.host.WorkerTasks}). It uses no device backend:
 * the JVM backend is the host today and implements {@code Host} on these, adding the ends of sorts and windows.
 */
package io.tessera.backend.host;
