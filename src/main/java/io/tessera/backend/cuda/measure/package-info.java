/**
 * A device's read bandwidth ({@link io.tessera.backend.cuda.measure.BandwidthProbe}, a GPU's through a kernel, the
 * CPU's on all cores), measured once and remembered per fingerprint ({@link
 * io.tessera.backend.cuda.measure.DeviceCatalog}), the bandwidth model's input.
 */
package io.tessera.backend.cuda.measure;
