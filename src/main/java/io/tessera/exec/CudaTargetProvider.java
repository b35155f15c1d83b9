package io.tessera.exec;

import io.tessera.storage.Database;
import io.tessera.tune.Target;
import io.tessera.tune.TargetProvider;
import io.tessera.tune.TuningDevice;

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
