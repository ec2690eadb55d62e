#include "backend/probe/gpuvendor.h"

namespace flashdeck::probe {

QString gpuVendorName(GpuVendor vendor)
{
    switch (vendor) {
    case GpuVendor::Nvidia:
        return QStringLiteral("nvidia");
    case GpuVendor::Amd:
        return QStringLiteral("amd");
    case GpuVendor::None:
        break;
    }
    return QStringLiteral("none");
}

std::optional<GpuVendor> gpuVendorFromName(const QString &name)
{
    for (const GpuVendor v : {GpuVendor::Nvidia, GpuVendor::Amd, GpuVendor::None}) {
        if (name == gpuVendorName(v)) {
            return v;
        }
    }
    return std::nullopt;
}

} // namespace flashdeck::probe
