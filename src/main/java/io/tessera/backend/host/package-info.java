/**
 * The host's own work, which every device's results end in, as the executor sees it: the {@link
 * io.tessera.backend.host.Host} (the device that runs every pipeline, publishes VALUES, completes relations whose
 * writers left parts, and gives the result), the result relation's read-out ({@link
 * io.tessera.backend.host.ResultRelation}), and the one loop that runs a query's pipelines on their devices
 * ({@link io.tessera.backend.host.PipelineLoop}), which the executor and the JVM tuners' runs share. The JVM
 * backend is the host today and implements these.
 */
package io.tessera.backend.host;
