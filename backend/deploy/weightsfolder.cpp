#include "backend/deploy/weightsfolder.h"

#include "backend/core/hosttext.h"
#include "backend/core/jsonread.h"
#include "backend/core/shellquote.h"

#include <QCoreApplication>
#include <QSet>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>

namespace flashdeck::deploy {

namespace {

using nlohmann::json;

// A safetensors header is JSON of a few kB to a few MB; anything past this is a damaged file,
// not a header to download (https://github.com/huggingface/safetensors, "format").
constexpr qint64 kMaxHeader = 100 * 1024 * 1024;

QString listOf(QStringList names)
{
    std::sort(names.begin(), names.end());
    if (names.size() > 5) {
        const qsizetype more = names.size() - 5;
        names = names.mid(0, 5);
        names.append(QCoreApplication::translate("Deploy", "and %1 more").arg(more));
    }
    return names.join(QStringLiteral(", "));
}

QString relative(const QByteArray &path)
{
    QString p = QString::fromUtf8(path);
    if (p.startsWith(QLatin1String("./"))) {
        p.remove(0, 2);
    }
    return p;
}

bool fail(QString *error, const QString &why)
{
    if (error) {
        *error = why;
    }
    return false;
}

QString unexpectedLine(const QByteArray &line)
{
    return QCoreApplication::translate("Deploy", "unexpected listing line: %1").arg(hostText(line.left(200), 200));
}

/** The next line of `output` from `*pos`, which moves past its newline. */
QByteArray nextLine(const QByteArray &output, qsizetype *pos)
{
    qsizetype eol = output.indexOf('\n', *pos);
    if (eol < 0) {
        eol = output.size();
    }
    const QByteArray line = output.mid(*pos, eol - *pos);
    *pos = eol + 1;
    return line;
}

/** An `F <size> <path>`, `M <commit> <etag> <path>` or `S <sha256>  <path>` record (sha256sum's two spaces). */
struct FileRecord
{
    QByteArray field;
    QByteArray second; // M's etag
    QString path;
};

std::optional<FileRecord> fileRecord(const QByteArray &tag, const QByteArray &rest)
{
    const qsizetype sp = rest.indexOf(tag == "S " ? QByteArrayLiteral("  ") : QByteArrayLiteral(" "));
    if (sp <= 0) {
        return std::nullopt;
    }
    FileRecord r;
    r.field = rest.left(sp);
    qsizetype pathAt = sp + (tag == "S " ? 2 : 1);
    if (tag == "M ") { // commit, etag, path
        const qsizetype sp2 = rest.indexOf(' ', pathAt);
        if (sp2 < 0) {
            return std::nullopt;
        }
        r.second = rest.mid(pathAt, sp2 - pathAt);
        pathAt = sp2 + 1;
    }
    r.path = relative(rest.mid(pathAt));
    return r;
}

/** The file an hf download `.metadata` path describes; none for any other path. */
std::optional<QString> downloadedFile(const QString &path)
{
    static const QString prefix = QStringLiteral(".cache/huggingface/download/");
    if (path.startsWith(prefix) && path.endsWith(QLatin1String(".metadata"))) {
        return path.mid(prefix.size(), path.size() - prefix.size() - 9);
    }
    return std::nullopt;
}

/** The line of a `C <bytes> <path>` or `H <declared> <bytes> <path>` record, whose block follows it. */
struct BlockRecord
{
    qint64 first = 0; // C's bytes, H's declared header length
    qint64 bytes = 0;
    QString path;
    bool numbers = false; // both numbers read
};

std::optional<BlockRecord> blockRecord(const QByteArray &tag, const QByteArray &rest)
{
    const QList<QByteArray> parts = rest.split(' ');
    const int fields = tag == "C " ? 1 : 2;
    if (parts.size() <= fields) {
        return std::nullopt;
    }
    bool ok1 = false;
    bool ok2 = true;
    BlockRecord r;
    r.first = parts[0].toLongLong(&ok1);
    r.bytes = fields == 1 ? r.first : parts[1].toLongLong(&ok2);
    qsizetype skip = parts[0].size() + 1;
    if (fields == 2) {
        skip += parts[1].size() + 1;
    }
    r.path = relative(rest.mid(skip));
    r.numbers = ok1 && ok2;
    return r;
}

/** config.json: there, and JSON. */
void checkConfig(const QHash<QString, QByteArray> &contents, QStringList *problems)
{
    const auto config = contents.constFind(QStringLiteral("config.json"));
    if (config == contents.cend()) {
        problems->append(QCoreApplication::translate(
            "Deploy", "config.json is missing: this is not a model folder, or the copy is incomplete"));
    } else if (!json::accept(config->constData(), config->constData() + config->size())) {
        problems->append(QCoreApplication::translate("Deploy", "config.json is not valid JSON (damaged or cut short)"));
    }
}

/** The shards of the checkpoint in `prefix`: those its index names, else its one model.safetensors. */
QStringList shardsOf(const QHash<QString, QByteArray> &contents, const QHash<QString, qint64> &sizes,
                     const QString &prefix, const QString &label, QStringList *problems)
{
    const QString indexPath = prefix + QStringLiteral("model.safetensors.index.json");
    QStringList shards;
    const auto index = contents.constFind(indexPath);
    if (index != contents.cend()) {
        const json j = jsonread::parse(index->constData(), index->constData() + index->size());
        const json map = j.is_object() ? j.value("weight_map", json()) : json();
        if (!map.is_object() || map.empty()) {
            problems->append(
                QCoreApplication::translate("Deploy", "%1 has no weight_map (damaged or cut short)").arg(indexPath));
            return shards;
        }
        QSet<QString> seen;
        for (const auto &[tensor, file] : map.items()) {
            if (file.is_string()) {
                const QString f = prefix + QString::fromStdString(file.get<std::string>());
                if (!seen.contains(f)) {
                    seen.insert(f);
                    shards.append(f);
                }
            }
        }
    } else if (sizes.contains(prefix + QStringLiteral("model.safetensors"))) {
        shards.append(prefix + QStringLiteral("model.safetensors"));
    } else {
        problems->append(QCoreApplication::translate(
                             "Deploy", "%1: neither model.safetensors.index.json nor model.safetensors is there")
                             .arg(label));
    }
    return shards;
}

/** config.json names dspark_* keys: the draft is bundled in the checkpoint. */
bool configBundlesDraft(const QHash<QString, QByteArray> &contents)
{
    bool bundled = false;
    const auto config = contents.constFind(QStringLiteral("config.json"));
    if (config != contents.cend()) {
        const json c = jsonread::parse(config->constData(), config->constData() + config->size());
        if (c.is_object()) {
            for (const auto &[k, value] : c.items()) {
                bundled = bundled || k.rfind("dspark_", 0) == 0;
            }
        }
    }
    return bundled;
}

/**
 * The DSpark draft in `draftSubfolder` or bundled in the checkpoint, with its problems and notes:
 * the shards of the subfolder to check, empty when there is none.
 */
QStringList draftShards(const QHash<QString, QByteArray> &contents, const QHash<QString, qint64> &sizes,
                        const QString &draftSubfolder, WeightsFolder::Verdict *v)
{
    const QString draft = draftSubfolder + QLatin1Char('/');
    bool any = false;
    for (auto it = sizes.cbegin(); it != sizes.cend(); ++it) {
        any = any || it.key().startsWith(draft);
    }
    // SGLang also takes a draft bundled in the target checkpoint, which config.json announces
    // with dspark_* keys (sglang-facts §10: "DSpark draft weights are bundled in the target
    // checkpoint"); the seed's layout keeps it in the dspark/ subfolder (F27).
    const bool bundled = configBundlesDraft(contents);
    if (!any && bundled) {
        v->notes.append(QCoreApplication::translate(
            "Deploy", "the DSpark draft is bundled in the checkpoint (dspark_* keys in config.json)"));
        return {};
    }
    if (!any) {
        v->problems.append(QCoreApplication::translate("Deploy",
                                                       "no DSpark draft: the %1 subfolder is missing and config.json "
                                                       "has no dspark_* keys (SGLang finds the draft there)")
                               .arg(draftSubfolder));
        return {};
    }
    if (!contents.contains(draft + QStringLiteral("config.json"))) {
        v->problems.append(QCoreApplication::translate("Deploy", "%1config.json is missing").arg(draft));
    }
    return shardsOf(contents, sizes, draft, draftSubfolder, &v->problems);
}

/** hf download records an LFS file's sha256 as its etag: with checksums listed, compare them. */
void compareChecksums(const QHash<QString, QString> &sha256, const QHash<QString, QString> &etags,
                      WeightsFolder::Verdict *v)
{
    QStringList changed;
    for (auto it = sha256.cbegin(); it != sha256.cend(); ++it) {
        const QString etag = etags.value(it.key());
        if (etag.size() == 64 && etag != it.value()) {
            changed.append(it.key());
        }
    }
    if (!changed.isEmpty()) {
        v->problems.append(QCoreApplication::translate(
                               "Deploy", "%1 files differ in content (sha256) from what hf download recorded: %2")
                               .arg(changed.size())
                               .arg(listOf(changed)));
    } else if (!sha256.isEmpty() && !etags.isEmpty()) {
        v->notes.append(
            QCoreApplication::translate("Deploy", "%1 safetensors files match the sha256 hf download recorded")
                .arg(sha256.size()));
    }
}

/** The one revision the hf download metadata of the folder's files names. */
void judgeRevision(const QHash<QString, QString> &commitsOf, const QHash<QString, qint64> &sizes,
                   WeightsFolder::Verdict *v)
{
    QStringList commits;
    for (auto it = commitsOf.cbegin(); it != commitsOf.cend(); ++it) {
        if (sizes.contains(it.key())) {
            commits.append(it.value());
        }
    }
    commits.removeDuplicates();
    if (commits.size() == 1) {
        v->revision = commits.constFirst();
    } else if (commits.size() > 1) {
        QStringList list = commits;
        v->problems.append(
            QCoreApplication::translate("Deploy",
                                        "the files come from %1 different revisions (%2): download one revision into "
                                        "an empty folder")
                .arg(commits.size())
                .arg(listOf(list)));
    } else {
        v->notes.append(QCoreApplication::translate(
            "Deploy",
            "no hf download metadata (.cache/huggingface/download): the folder does not say "
            "which revision it holds"));
    }
}

} // namespace

QByteArray WeightsFolder::listingCommand(const QString &dir, bool checksums)
{
    // One round trip. Every record is a line `<tag> <fields> <path>` (the path last, so spaces
    // survive); C and H records are followed by exactly that many bytes and a newline.
    // `~/x` is the host user's home, as an operator types it; quoted, the shell would not expand it.
    QByteArray s = dir.startsWith(QLatin1String("~/")) ? QByteArray("d=\"$HOME\"/" + shellQuote(dir.mid(2)))
                                                       : QByteArray("d=" + shellQuote(dir));
    s += '\n';
    s += "if ! cd -- \"$d\" 2>/dev/null; then echo NODIR; exit 0; fi\n"
         "printf 'DIR %s\\n' \"$(pwd -P)\"\n"
         "find . -path ./.cache -prune -o -type f -exec stat -c 'F %s %n' {} +\n"
         "if [ -d .cache/huggingface/download ]; then\n"
         "  find .cache/huggingface/download -type f -name '*.metadata' -exec sh -c "
         "'for f; do printf \"M %s %s %s\\n\" \"$(sed -n 1p \"$f\")\" \"$(sed -n 2p \"$f\")\" \"$f\"; done' sh "
         "{} +\n"
         "fi\n"
         "for f in config.json model.safetensors.index.json */config.json */model.safetensors.index.json; do\n"
         "  if [ -f \"$f\" ]; then n=$(wc -c < \"$f\" | tr -d ' '); printf 'C %s %s\\n' \"$n\" \"$f\"; "
         "head -c \"$n\" \"$f\"; echo; fi\n"
         "done\n"
         "find . -path ./.cache -prune -o -type f -name '*.safetensors' -exec sh -c '\n"
         "for f; do\n"
         "  n=$(head -c 8 \"$f\" | od -An -tu8 | tr -d \" \\n\")\n"
         "  case \"$n\" in \"\"|*[!0-9]*) n=0;; esac\n"
         "  if [ ${#n} -gt 9 ]; then printf \"H %s 0 %s\\n\\n\" \"$n\" \"$f\"; continue; fi\n"
         "  got=$(head -c $((8 + n)) \"$f\" | tail -c +9 | wc -c | tr -d \" \")\n"
         "  printf \"H %s %s %s\\n\" \"$n\" \"$got\" \"$f\"\n"
         "  head -c $((8 + n)) \"$f\" | tail -c +9\n"
         "  echo\n"
         "done' sh {} +\n";
    if (checksums) {
        s += "find . -path ./.cache -prune -o -type f -name '*.safetensors' -exec sha256sum {} + | sed 's/^/S /'\n";
    }
    s += "echo END\n";
    return s;
}

bool WeightsFolder::parse(const QByteArray &output, QString *error)
{
    *this = WeightsFolder{};
    qsizetype pos = 0;
    while (pos < output.size()) {
        const QByteArray line = nextLine(output, &pos);
        if (line.isEmpty()) {
            continue;
        }
        if (line == "NODIR") {
            m_exists = false;
            return true;
        }
        if (line == "END") {
            return true;
        }
        const qsizetype space = line.indexOf(' ');
        const QByteArray tag = space < 0 ? QByteArray() : line.left(space + 1);
        const QByteArray rest = space < 0 ? QByteArray() : line.mid(space + 1);
        if (tag == "DIR ") {
            m_exists = true;
            m_resolved = QString::fromUtf8(rest);
        } else if (tag == "F " || tag == "M " || tag == "S ") {
            const std::optional<FileRecord> r = fileRecord(tag, rest);
            if (!r) {
                return fail(error, unexpectedLine(line));
            }
            if (tag == "F ") {
                bool ok = false;
                m_sizes.insert(r->path, r->field.toLongLong(&ok));
                if (!ok) {
                    return fail(error,
                                QCoreApplication::translate("Deploy", "unexpected size in: %1")
                                    .arg(hostText(line.left(200), 200)));
                }
            } else if (tag == "M ") {
                if (const std::optional<QString> file = downloadedFile(r->path)) {
                    m_commits.insert(*file, QString::fromUtf8(r->field));
                    m_etags.insert(*file, QString::fromUtf8(r->second));
                }
            } else {
                m_sha256.insert(r->path, QString::fromLatin1(r->field));
            }
        } else if (tag == "C " || tag == "H ") {
            const std::optional<BlockRecord> r = blockRecord(tag, rest);
            if (!r) {
                return fail(error, unexpectedLine(line));
            }
            if (!r->numbers || r->bytes < 0 || pos + r->bytes > output.size()) {
                return fail(
                    error,
                    QCoreApplication::translate("Deploy", "the listing of %1 is cut short (was the folder changing?)")
                        .arg(r->path));
            }
            const QByteArray data = output.mid(pos, r->bytes);
            pos += r->bytes + 1; // and the newline after the block
            if (tag == "C ") {
                m_contents.insert(r->path, data);
            } else {
                m_headers.insert(r->path, Header{r->first, data});
            }
        } else {
            return fail(error, unexpectedLine(line));
        }
    }
    return fail(error,
                QCoreApplication::translate(
                    "Deploy", "the listing ended early (no END line): the connection dropped or a tool failed"));
}

void WeightsFolder::checkSafetensors(const QString &path, QStringList *problems) const
{
    const auto h = m_headers.constFind(path);
    if (h == m_headers.cend()) {
        problems->append(QCoreApplication::translate("Deploy", "%1 could not be read").arg(path));
        return;
    }
    if (h->declared <= 0 || h->declared > kMaxHeader) {
        problems->append(QCoreApplication::translate("Deploy", "%1 is not a safetensors file (header length %2)")
                             .arg(path)
                             .arg(h->declared));
        return;
    }
    if (h->json.size() < h->declared) {
        problems->append(QCoreApplication::translate("Deploy", "%1 is truncated inside its header (%2 of %3 bytes)")
                             .arg(path)
                             .arg(h->json.size())
                             .arg(h->declared));
        return;
    }
    const json header = jsonread::parse(h->json.constData(), h->json.constData() + h->json.size());
    if (!header.is_object()) {
        problems->append(QCoreApplication::translate("Deploy", "%1 has a damaged header (not JSON)").arg(path));
        return;
    }
    qint64 end = 0;
    for (const auto &[name, tensor] : header.items()) {
        if (name == "__metadata__" || !tensor.is_object()) {
            continue;
        }
        const json offsets = tensor.value("data_offsets", json());
        if (offsets.is_array() && offsets.size() == 2 && offsets[1].is_number_unsigned()) {
            end = std::max(end, offsets[1].get<qint64>());
        }
    }
    const qint64 expected = 8 + h->declared + end;
    const qint64 size = m_sizes.value(path, -1);
    if (size < expected) {
        problems->append(
            QCoreApplication::translate("Deploy", "%1 is truncated: %2 of %3 bytes").arg(path).arg(size).arg(expected));
    } else if (size > expected) {
        problems->append(
            QCoreApplication::translate("Deploy", "%1 has %2 bytes more than its header describes (damaged)")
                .arg(path)
                .arg(size - expected));
    }
}

WeightsFolder::Verdict WeightsFolder::verify(const QString &draftSubfolder) const
{
    Verdict v;
    if (!m_exists) {
        v.problems.append(QCoreApplication::translate("Deploy", "there is no folder there (or it cannot be entered)"));
        return v;
    }
    for (auto it = m_sizes.cbegin(); it != m_sizes.cend(); ++it) {
        v.bytes += it.value();
    }
    checkConfig(m_contents, &v.problems);
    // Each shard there is checked as a safetensors file; the missing ones are returned.
    const auto checkShards = [this, &v](const QStringList &shards) {
        QStringList missing;
        for (const QString &s : shards) {
            if (!m_sizes.contains(s)) {
                missing.append(s);
            } else {
                checkSafetensors(s, &v.problems);
            }
        }
        return missing;
    };

    const QStringList shards =
        shardsOf(m_contents, m_sizes, QString(), QCoreApplication::translate("Deploy", "the checkpoint"), &v.problems);
    v.shards = int(shards.size());
    const QStringList missing = checkShards(shards);
    if (!missing.isEmpty()) {
        v.problems.append(QCoreApplication::translate("Deploy", "%1 of the %2 shards the index names are missing: %3")
                              .arg(missing.size())
                              .arg(shards.size())
                              .arg(listOf(missing)));
    }
    if (!draftSubfolder.isEmpty()) {
        const QStringList draftMissing = checkShards(draftShards(m_contents, m_sizes, draftSubfolder, &v));
        if (!draftMissing.isEmpty()) {
            v.problems.append(
                QCoreApplication::translate("Deploy", "the draft's shards are missing: %1").arg(listOf(draftMissing)));
        }
    }
    compareChecksums(m_sha256, m_etags, &v);
    judgeRevision(m_commits, m_sizes, &v);
    return v;
}

void WeightsFolder::compareWithTree(const QByteArray &treeJson, Verdict *verdict) const
{
    const json tree = jsonread::parse(treeJson.constData(), treeJson.constData() + treeJson.size());
    if (!tree.is_array()) {
        verdict->problems.append(QCoreApplication::translate("Deploy", "the Hub's file list is not a JSON array"));
        return;
    }
    QStringList missing;
    QStringList wrongSize;
    QStringList wrongHash;
    QSet<QString> known;
    int files = 0;
    for (const json &e : tree) {
        if (!e.is_object() || jsonread::string(e, "type") != "file") {
            continue;
        }
        const QString path = QString::fromStdString(jsonread::string(e, "path"));
        known.insert(path);
        if (path == QLatin1String(".gitattributes")) {
            continue; // a git file, not part of a download
        }
        ++files;
        const qint64 size = e.value("size", qint64(-1));
        if (!m_sizes.contains(path)) {
            missing.append(path);
        } else if (m_sizes.value(path) != size) {
            wrongSize.append(QCoreApplication::translate("Deploy", "%1 (%2 bytes, the revision has %3)")
                                 .arg(path)
                                 .arg(m_sizes.value(path))
                                 .arg(size));
        } else if (!m_sha256.isEmpty() && e.contains("lfs") && e["lfs"].is_object()) {
            const QString oid = QString::fromStdString(jsonread::string(e.value("lfs", nlohmann::json()), "oid"));
            if (m_sha256.value(path) != oid) {
                wrongHash.append(path);
            }
        }
    }
    if (files == 0) {
        verdict->problems.append(
            QCoreApplication::translate("Deploy", "the Hub listed no files for the pinned revision"));
    }
    if (!missing.isEmpty()) {
        verdict->problems.append(
            QCoreApplication::translate("Deploy", "%1 files of the pinned revision are missing: %2")
                .arg(missing.size())
                .arg(listOf(missing)));
    }
    if (!wrongSize.isEmpty()) {
        verdict->problems.append(
            QCoreApplication::translate("Deploy", "%1 files differ in size from the pinned revision: %2")
                .arg(wrongSize.size())
                .arg(listOf(wrongSize)));
    }
    if (!wrongHash.isEmpty()) {
        verdict->problems.append(
            QCoreApplication::translate("Deploy", "%1 files differ in content (sha256) from the pinned revision: %2")
                .arg(wrongHash.size())
                .arg(listOf(wrongHash)));
    }
    QStringList extra;
    for (auto it = m_sizes.cbegin(); it != m_sizes.cend(); ++it) {
        if (!known.contains(it.key())) {
            extra.append(it.key());
        }
    }
    if (!extra.isEmpty()) {
        verdict->notes.append(
            QCoreApplication::translate("Deploy", "files the revision does not have (ignored): %1").arg(listOf(extra)));
    }
    if (verdict->ok()) {
        verdict->notes.append(
            m_sha256.isEmpty()
                ? QCoreApplication::translate("Deploy", "%1 files match the pinned revision by name and size")
                      .arg(files)
                : QCoreApplication::translate("Deploy", "%1 files match the pinned revision by name, size and sha256")
                      .arg(files));
    }
}

QStringList WeightsFolder::offlineCommands(const QString &repo, const QString &revision, const QString &hostDir,
                                           const QString &destination)
{
    const QString local = QStringLiteral("./") + repo.section(QLatin1Char('/'), -1);
    const QString rev = revision.isEmpty() ? QStringLiteral("<pinned sha>") : revision;
    return {QStringLiteral("pip install -U huggingface_hub"),
            QString::fromUtf8(
                shellJoin(QStringList{QStringLiteral("hf"), QStringLiteral("download"), repo,
                                      QStringLiteral("--revision"), rev, QStringLiteral("--local-dir"), local})),
            QString::fromUtf8(
                shellJoin(QStringList{QStringLiteral("rsync"), QStringLiteral("-a"), QStringLiteral("--partial"),
                                      QStringLiteral("--info=progress2"), local + QLatin1Char('/'),
                                      destination + QLatin1Char(':') + hostDir + QLatin1Char('/')}))};
}

QString WeightsFolder::modelscopeCommand(const QString &mirror, const QString &hostDir)
{
    return QString::fromUtf8(
        shellJoin(QStringList{QStringLiteral("modelscope"), QStringLiteral("download"), QStringLiteral("--model"),
                              mirror, QStringLiteral("--local_dir"), hostDir}));
}

} // namespace flashdeck::deploy
