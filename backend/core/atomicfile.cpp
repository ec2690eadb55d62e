#include "backend/core/atomicfile.h"

#include <QByteArray>
#include <QSaveFile>

namespace flashdeck {

Status writeFileAtomically(const QString &path, const QByteArray &data, QFileDevice::Permissions permissions)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        return Status::failure(f.errorString());
    }
    if (permissions) {
        f.setPermissions(permissions);
    }
    if (f.write(data) != data.size() || !f.flush()) {
        const QString reason = f.errorString();
        f.cancelWriting(); // commit() now drops the temporary file and keeps the old one
        (void)f.commit();
        return Status::failure(reason);
    }
    if (!f.commit()) {
        return Status::failure(f.errorString());
    }
    return Status::ok();
}

} // namespace flashdeck
