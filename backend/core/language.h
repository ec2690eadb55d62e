#pragma once

#include "backend/core/result.h"

#include <QString>
#include <QStringView>

#include <memory>
#include <optional>

class QTranslator;

namespace flashdeck {

/** The language Flashdeck speaks: the window, the CLI's messages, the licence summary. */
enum class UiLanguage {
    System, // follow the system locale
    English,
    Chinese, // Simplified Chinese (zh_CN)
    Pseudo, // every translated text bracketed: a test's way to see what escaped translation
};

/**
 * Chooses the language and installs its translators into the running QCoreApplication:
 * Flashdeck's own (compiled in from resources/translations/) and Qt's (qtbase, from the system's
 * Qt translations, so Qt's own dialogs speak it too). Owns the translators; lives as long as the
 * application. English needs only its plural forms ("1 host", "2 hosts"): the sources are English.
 */
class Language final
{
public:
    Language();
    ~Language();
    Language(const Language &) = delete;
    Language &operator=(const Language &) = delete;

    /** "zh_CN" (also "zh", "zh-CN"), "en", "system"; nullopt for anything else. */
    [[nodiscard]] static std::optional<UiLanguage> fromName(QStringView name);
    /** The name stored in flashdeck.ini and given to --lang: "zh_CN", "en", "system", "pseudo". */
    [[nodiscard]] static QString name(UiLanguage language);
    /** System resolved against the system locale: any Chinese locale reads Chinese, else English. */
    [[nodiscard]] static UiLanguage resolve(UiLanguage language);

    /** Installs `language` (System resolved); a missing Qt translation is not an error. */
    [[nodiscard]] Status install(UiLanguage language);
    /** The language installed (never System). */
    UiLanguage active() const { return m_active; }
    /** "zh_CN" or "en": what the licence acknowledgement records. */
    QString activeName() const;

private:
    void uninstall();

    UiLanguage m_active = UiLanguage::English;
    std::unique_ptr<QTranslator> m_own;
    std::unique_ptr<QTranslator> m_qt;
};

} // namespace flashdeck
