// The replay runner: the fuzz target built with an ordinary main, run by ctest over the seed
// corpus and the regression inputs (every crash a fuzzer found), under the dev and the
// sanitizer builds alike. A crash or a violated property aborts the test.

#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

#include <cstdint>
#include <cstdio>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    int inputs = 0;
    for (int i = 1; i < argc; ++i) {
        const QString root = QString::fromLocal8Bit(argv[i]);
        QStringList files;
        if (QFileInfo(root).isDir()) {
            QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                files << it.next();
            }
        } else {
            files << root;
        }
        files.sort();
        for (const QString &path : files) {
            QFile f(path);
            if (!f.open(QIODevice::ReadOnly)) {
                std::fprintf(stderr, "replay: cannot read %s\n", qPrintable(path));
                return 1;
            }
            const QByteArray data = f.readAll();
            std::fprintf(stderr, "replay: %s (%lld bytes)\n", qPrintable(path), static_cast<long long>(data.size()));
            LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(data.constData()),
                                   static_cast<size_t>(data.size()));
            ++inputs;
        }
    }
    if (inputs == 0) {
        std::fputs("replay: no inputs found: a replay that runs nothing proves nothing\n", stderr);
        return 1;
    }
    std::printf("replay: %d inputs, no crash\n", inputs);
    return 0;
}
