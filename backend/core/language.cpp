#include "backend/core/language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace flashdeck {

namespace {

/**
 * Flashdeck's classes live in namespaces ("flashdeck::ui::FleetPage" at run time), but lupdate's
 * parser does not read C++17 nested namespace definitions and files their strings under the bare
 * class name ("FleetPage"). Looking a text up under its context's last component makes the two
 * meet without rewriting every namespace.
 */
class OwnTranslator final : public QTranslator
{
public:
    QString translate(const char *context, const char *sourceText, const char *disambiguation, int n) const override
    {
        if (context) {
            const char *bare = context;
            for (const char *p = context; *p; ++p) {
                if (p[0] == ':' && p[1] == ':') {
                    bare = p + 2;
                }
            }
            context = bare;
        }
        return QTranslator::translate(context, sourceText, disambiguation, n);
    }
};

/**
 * Every text that goes through translation comes back bracketed in ⟦ ⟧; text without them in
 * the window escaped translation. Latin letters are kept, so layouts see realistic lengths.
 */
class PseudoTranslator final : public QTranslator
{
public:
    QString translate(const char *, const char *sourceText, const char *, int) const override
    {
        if (!sourceText || !*sourceText) {
            return {};
        }
        return QStringLiteral("⟦") + QString::fromUtf8(sourceText) + QStringLiteral("⟧");
    }
    bool isEmpty() const override { return false; }
};

} // namespace

Language::Language() = default;

Language::~Language()
{
    uninstall();
}

std::optional<UiLanguage> Language::fromName(QStringView name)
{
    const QString n = name.trimmed().toString().toLower().replace(QLatin1Char('-'), QLatin1Char('_'));
    if (n == QLatin1String("zh_cn") || n == QLatin1String("zh") || n == QLatin1String("zh_hans")) {
        return UiLanguage::Chinese;
    }
    if (n == QLatin1String("en") || n == QLatin1String("en_us") || n == QLatin1String("en_gb") ||
        n == QLatin1String("c")) {
        return UiLanguage::English;
    }
    if (n == QLatin1String("system") || n.isEmpty()) {
        return UiLanguage::System;
    }
    if (n == QLatin1String("pseudo")) {
        return UiLanguage::Pseudo;
    }
    return std::nullopt;
}

QString Language::name(UiLanguage language)
{
    switch (language) {
    case UiLanguage::System:
        return QStringLiteral("system");
    case UiLanguage::English:
        return QStringLiteral("en");
    case UiLanguage::Chinese:
        return QStringLiteral("zh_CN");
    case UiLanguage::Pseudo:
        return QStringLiteral("pseudo");
    }
    return QStringLiteral("en");
}

UiLanguage Language::resolve(UiLanguage language)
{
    if (language != UiLanguage::System) {
        return language;
    }
    // Traditional-script locales read Chinese too: our Simplified text is closer to them than
    // English. LANGUAGE, LC_ALL, LC_MESSAGES and LANG are what QLocale::system() reads on Unix.
    return QLocale::system().language() == QLocale::Chinese ? UiLanguage::Chinese : UiLanguage::English;
}

QString Language::activeName() const
{
    return name(m_active == UiLanguage::Chinese ? UiLanguage::Chinese : UiLanguage::English);
}

void Language::uninstall()
{
    for (auto *t : {m_own.get(), m_qt.get()}) {
        if (t && QCoreApplication::instance()) {
            QCoreApplication::removeTranslator(t);
        }
    }
    m_own.reset();
    m_qt.reset();
}

Status Language::install(UiLanguage language)
{
    uninstall();
    m_active = resolve(language);
    switch (m_active) {
    case UiLanguage::English:
    case UiLanguage::System:
        m_active = UiLanguage::English;
        // The sources are English; this holds their plural forms only ("1 host", "2 hosts").
        m_own = std::make_unique<OwnTranslator>();
        if (m_own->load(QStringLiteral(":/i18n/flashdeck_en.qm"))) {
            QCoreApplication::installTranslator(m_own.get());
        } else {
            m_own.reset(); // "host(s)" then: a word less polished, nothing lost
        }
        return Status::ok();
    case UiLanguage::Pseudo:
        m_own = std::make_unique<PseudoTranslator>();
        QCoreApplication::installTranslator(m_own.get());
        return Status::ok();
    case UiLanguage::Chinese:
        break;
    }
    m_own = std::make_unique<OwnTranslator>();
    if (!m_own->load(QStringLiteral(":/i18n/flashdeck_zh_CN.qm"))) {
        m_own.reset();
        m_active = UiLanguage::English;
        return Status::failure(
            QCoreApplication::translate("Core",
                                        "The Chinese translation is missing from this build of Flashdeck; "
                                        "it speaks English. Rebuild with Qt's lrelease installed."));
    }
    QCoreApplication::installTranslator(m_own.get());
    // Qt's own words (buttons of standard dialogs, the file chooser): from the system's Qt
    // translations (Debian: qt6-translations-l10n). Without them only those stay English.
    m_qt = std::make_unique<QTranslator>();
    if (m_qt->load(QLocale(QLocale::Chinese, QLocale::China), QStringLiteral("qtbase"), QStringLiteral("_"),
                   QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(m_qt.get());
    } else {
        m_qt.reset();
    }
    // Dates and numbers Qt formats for the user follow the language chosen.
    QLocale::setDefault(QLocale(QLocale::Chinese, QLocale::China));
    return Status::ok();
}

} // namespace flashdeck
