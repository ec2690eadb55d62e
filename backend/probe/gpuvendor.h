#pragma once

#include <QString>

#include <optional>

namespace flashdeck::probe {

/** Whose GPUs a host has, or a profile is for. `None`: the host has no GPU tool of either. */
enum class GpuVendor { None, Nvidia, Amd };

/** "nvidia", "amd" (the recipe's and the CLI's JSON words), "none". */
QString gpuVendorName(GpuVendor vendor);
/** The reverse of gpuVendorName; nullopt for anything else. */
std::optional<GpuVendor> gpuVendorFromName(const QString &name);

} // namespace flashdeck::probe
