#pragma once

#include "backend/expose/gatewayoptions.h"

#include <QString>

namespace flashdeck::expose {

/**
 * What an operator reads before exposing a server: what will listen where, who may connect, the
 * limits with the reason for each default, what is refused, and what is still theirs to do.
 * Plain text, translated; options are assumed valid (GatewayOptions::validate).
 */
class GatewayPreview final
{
public:
    static QString text(const GatewayOptions &options);
};

} // namespace flashdeck::expose
