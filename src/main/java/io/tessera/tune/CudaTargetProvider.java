package io.tessera.tune;

import io.tessera.storage.Database;

/** Registers {@link CudaTuningTarget} for the CUDA backend's devices (META-INF/services). */
public final class CudaTargetProvider implements TargetProvider {

    @Override
    public String backend() {
        return "cuda";
    }

    @Override
    public Target create(TuningDevice device, Database db, String sql) {
        return new CudaTuningTarget(device, db, sql);
    }
}
