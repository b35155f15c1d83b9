/**
 * What every device backend shares: the {@link io.tessera.backend.Backend} interface (a capability check per
 * pipeline, prepare, run one pipeline), a device beside the host ({@link io.tessera.backend.Accelerator}), a
 * device's failure as the executor catches it ({@link io.tessera.backend.DeviceException}), the devices of an open
 * database by name ({@link io.tessera.backend.Devices}), a query's run state with its intermediates as device-neutral handles
 * ({@link io.tessera.backend.QueryState}, {@link io.tessera.backend.Intermediate}; a handle stays on the device
 * that made it until the host needs it, and each move is counted and timed, arriving in the host's one batch
 * format, {@link io.tessera.backend.host.RowBuffer} with its dictionaries' keys as a {@link
 * io.tessera.backend.host.RelationPart}), and the SQL semantics of an aggregate's final value
 * ({@link io.tessera.backend.GroupRows}). The JVM backend lives in {@code backend.jvm.*}, the CUDA backend in
 * {@code backend.cuda.*}; neither imports the other.
 */
package io.tessera.backend;
