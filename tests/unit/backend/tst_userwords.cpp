#include "backend/logs/logrules.h"
#include "backend/recipe/recipe.h"

#include <QRegularExpression>
#include <QTest>

using namespace flashdeck;
using flashdeck::logs::LogRule;
using flashdeck::logs::LogRules;

/**
 * Users read words, not our ids: no fact id ("F20", "(F08)") and no "host contract §" in the
 * texts the built-in recipe and log rules give the window and the CLI — `recipes show --json`'s
 * "facts" included, which say the page's facts in words. The ids stay in code comments. The
 * deployment steps' own texts are checked by tst_deploycli on every scenario.
 */
class TestUserWords : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void recipe_saysItInWords();
    void logRules_sayItInWords();

public:
    static QString idIn(const QString &text)
    {
        static const QRegularExpression ids(QStringLiteral(R"(\bF\d\d\b|[Hh]ost[- ]contract|§)"));
        const QRegularExpressionMatch m = ids.match(text);
        return m.hasMatch() ? m.captured() : QString();
    }
};

void TestUserWords::recipe_saysItInWords()
{
    const auto recipes = recipe::Recipe::builtIn();
    QVERIFY2(recipes, qPrintable(recipes.message()));
    int texts = 0;
    for (const recipe::Recipe &r : recipes.value()) {
        QVERIFY2(idIn(r.statusNote).isEmpty(), qPrintable(r.statusNote));
        for (const recipe::RecipeProfile &p : r.profiles) {
            for (const QString &text : QStringList{p.title, p.note, p.imageSource} + p.facts) {
                QVERIFY2(idIn(text).isEmpty(), qPrintable(text));
                ++texts;
            }
        }
    }
    QVERIFY(texts > 6); // the check read the profiles
    QCOMPARE(idIn(QStringLiteral("a fallback (F20) here")), QStringLiteral("F20")); // and can fail
}

void TestUserWords::logRules_sayItInWords()
{
    const auto rules = LogRules::builtIn();
    QVERIFY2(rules, qPrintable(rules.message()));
    QVERIFY(rules.value().rules().size() > 5);
    for (const LogRule &rule : rules.value().rules()) {
        QVERIFY2(idIn(rule.meaning).isEmpty(), qPrintable(rule.meaning));
        QVERIFY2(idIn(rule.fix).isEmpty(), qPrintable(rule.fix));
    }
}

QTEST_GUILESS_MAIN(TestUserWords)
#include "tst_userwords.moc"
