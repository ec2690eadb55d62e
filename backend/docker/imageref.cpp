#include "backend/docker/imageref.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace flashdeck::docker {

namespace {

/** distribution's rule: the first component is a registry when it could only be a host. */
bool looksLikeRegistry(const QString &component)
{
    return component.contains(QLatin1Char('.')) || component.contains(QLatin1Char(':')) ||
        component == QLatin1String("localhost");
}

} // namespace

Result<ImageRef> ImageRef::parse(const QString &text)
{
    const QString t = text.trimmed();
    if (t.isEmpty()) {
        return Status::failure(
            QCoreApplication::translate("Docker", "The image is empty: give NAME:TAG, e.g. lmsysorg/sglang:dev."));
    }
    if (t.contains(QLatin1Char('@'))) {
        return Status::failure(
            QCoreApplication::translate(
                "Docker", "\"%1\" names a digest: give NAME:TAG; the pin step resolves the digest and records it.")
                .arg(t));
    }
    // The tag is after the last ':' that follows the last '/' (a registry's port is not a tag).
    const int slash = int(t.lastIndexOf(QLatin1Char('/')));
    const int colon = int(t.lastIndexOf(QLatin1Char(':')));
    ImageRef ref;
    ref.name = colon > slash ? t.left(colon) : t;
    ref.tag = colon > slash ? t.mid(colon + 1) : QStringLiteral("latest");
    // distribution's grammar, loosely: lower-case path components, after a host[:port] that
    // counts as one only when it looks like a host (else "LMSYSORG/x" would pass as a registry).
    static const QRegularExpression pathRe(
        QStringLiteral(R"(^[a-z0-9]+([._-]+[a-z0-9]+)*(/[a-z0-9]+([._-]+[a-z0-9]+)*)*$)"));
    static const QRegularExpression hostRe(QStringLiteral(R"(^[A-Za-z0-9.-]+(:[0-9]+)?$)"));
    static const QRegularExpression tagRe(QStringLiteral(R"(^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$)"));
    const QString first = ref.name.section(QLatin1Char('/'), 0, 0);
    const bool hosted = ref.name.contains(QLatin1Char('/')) && looksLikeRegistry(first);
    const bool nameOk = hosted
        ? hostRe.match(first).hasMatch() && pathRe.match(ref.name.mid(first.size() + 1)).hasMatch()
        : pathRe.match(ref.name).hasMatch();
    if (!nameOk || !tagRe.match(ref.tag).hasMatch()) {
        return Status::failure(QCoreApplication::translate(
                                   "Docker",
                                   "\"%1\" is not an image reference docker accepts: NAME:TAG, the name in lower case "
                                   "(e.g. lmsysorg/sglang:dev or registry.example:5000/team/sglang:rocm).")
                                   .arg(t));
    }
    return ref;
}

QString ImageRef::registry() const
{
    const QString first = name.section(QLatin1Char('/'), 0, 0);
    return name.contains(QLatin1Char('/')) && looksLikeRegistry(first) ? first : QStringLiteral("docker.io");
}

QString ImageRef::qualifiedName() const
{
    if (name.contains(QLatin1Char('/')) && looksLikeRegistry(name.section(QLatin1Char('/'), 0, 0))) {
        return name;
    }
    return QStringLiteral("docker.io/") + (name.contains(QLatin1Char('/')) ? name : QStringLiteral("library/") + name);
}

} // namespace flashdeck::docker
