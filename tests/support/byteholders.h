#pragma once

#include <QByteArray>

namespace flashdeck::test {

/** How many QByteArrays hold `bytes`'s block: its reference count (bytes::BlockSlicer, BlockReleaser). */
inline int holders(const QByteArray &bytes)
{
    return const_cast<QByteArray &>(bytes).data_ptr().d_ptr()->ref_.loadRelaxed();
}

} // namespace flashdeck::test
