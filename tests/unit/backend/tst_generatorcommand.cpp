#include "backend/recipe/generatorcommand.h"
#include "backend/recipe/shellwords.h"

#include <QTest>

using namespace flashdeck;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

QStringList l(std::initializer_list<const char *> words)
{
    QStringList out;
    for (const char *word : words) {
        out.append(QString::fromUtf8(word));
    }
    return out;
}

/** Words split at spaces (the expected server words, none of which has a space). */
QStringList w(const char *text)
{
    return QString::fromUtf8(text).split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

} // namespace

/**
 * SGLang's configuration generator's commands, read as a shell would split them and never run;
 * what a shell would do more with is refused with the character and where it is.
 */
class TestGeneratorCommand : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void shellWords_asAPosixShellSplitsThem_data();
    void shellWords_asAPosixShellSplitsThem();
    void generatorOutputs_readAsGiven_data();
    void generatorOutputs_readAsGiven();
    void hostile_refusedWithTheCharacterAndWhere_data();
    void hostile_refusedWithTheCharacterAndWhere();
    void dockerForm_keepsTheEnvironmentAndSaysWhatItIgnores();
    void listFlags_keepEveryValueInOrder();
};

void TestGeneratorCommand::shellWords_asAPosixShellSplitsThem_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("words");
    QTest::newRow("plain") << s("a b  c") << l({"a", "b", "c"});
    QTest::newRow("tabs") << s("a\tb") << l({"a", "b"});
    QTest::newRow("single quotes keep everything") << s(R"('a $b `c` \d "e"')") << l({R"(a $b `c` \d "e")"});
    QTest::newRow("double quotes escape four") << s(R"("a \$ \` \" \\ \n")") << l({R"(a $ ` " \ \n)"});
    QTest::newRow("backslash outside quotes") << s(R"(a\ b \; \| \$x)") << l({"a b", ";", "|", "$x"});
    QTest::newRow("quotes join a word") << s(R"(--x='{"a": 1}'"b"c)") << l({R"(--x={"a": 1}bc)"});
    QTest::newRow("empty quoted word") << s("a '' \"\" b") << l({"a", "", "", "b"});
    QTest::newRow("continuation") << s("a \\\n  b \\\n c") << l({"a", "b", "c"});
    QTest::newRow("continuation inside a word") << s("ab\\\ncd") << l({"abcd"});
    QTest::newRow("continuation in double quotes") << s("\"ab\\\ncd\"") << l({"abcd"});
    QTest::newRow("newline in single quotes") << s("'a\nb'") << l({"a\nb"});
    QTest::newRow("CRLF continuation") << s("a \\\r\n b\r\n") << l({"a", "b"});
    QTest::newRow("comment lines") << s("# generated\n  # more\na b # trailing\n") << l({"a", "b"});
    QTest::newRow("hash inside a word") << s("a#b") << l({"a#b"});
    QTest::newRow("tilde stays") << s("-v ~/.cache/x:/root/x") << l({"-v", "~/.cache/x:/root/x"});
    QTest::newRow("lone dollar") << s("a $ b$") << l({"a", "$", "b$"});
    QTest::newRow("blank lines around") << s("\n\n  a b  \n\n") << l({"a", "b"});
    QTest::newRow("non-ASCII") << s("--x 'é ü'") << l({"--x", "é ü"});
    QTest::newRow("nothing") << s("") << l({});
}

void TestGeneratorCommand::shellWords_asAPosixShellSplitsThem()
{
    QFETCH(QString, text);
    QFETCH(QStringList, words);
    const Result<QStringList> got = recipe::ShellWords::split(text);
    QVERIFY2(got, qPrintable(got.message()));
    QCOMPARE(got.value(), words);
}

void TestGeneratorCommand::generatorOutputs_readAsGiven_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("form");
    QTest::addColumn<QStringList>("serverWords");
    QTest::addColumn<QString>("image");
    QTest::addColumn<QStringList>("env");
    QTest::addColumn<int>("ignored");

    const int launch = int(recipe::GeneratorCommand::Form::LaunchServer);
    const int serve = int(recipe::GeneratorCommand::Form::SglangServe);
    const int docker = int(recipe::GeneratorCommand::Form::DockerRun);
    // NVIDIA B200, TP 8 (the cookbook's B200 line: 0.65 of memory).
    QTest::newRow("B200 launch_server") << s("python3 -m sglang.launch_server \\\n"
                                             "  --model-path MiniMaxAI/MiniMax-M3.1-Flash \\\n"
                                             "  --tp 8 \\\n"
                                             "  --trust-remote-code \\\n"
                                             "  --reasoning-parser minimax-m3 \\\n"
                                             "  --tool-call-parser minimax-m3 \\\n"
                                             "  --mem-fraction-static 0.65 \\\n"
                                             "  --host 0.0.0.0 \\\n"
                                             "  --port 30000\n")
                                        << launch
                                        << w("--model-path MiniMaxAI/MiniMax-M3.1-Flash --tp 8 --trust-remote-code "
                                             "--reasoning-parser minimax-m3 --tool-call-parser minimax-m3 "
                                             "--mem-fraction-static 0.65 --host 0.0.0.0 --port 30000")
                                        << QString() << QStringList() << 0;
    // NVIDIA H200 with the newer entry point and the long spellings.
    QTest::newRow("H200 sglang serve") << s("sglang serve --model-path MiniMaxAI/MiniMax-M3.1-Flash --tp-size 8 "
                                            "--dp-size 1 --attention-backend fa3 --chunked-prefill-size 8192 "
                                            "--mem-fraction-static 0.75 --sampling-defaults model")
                                       << serve
                                       << w("--model-path MiniMaxAI/MiniMax-M3.1-Flash --tp-size 8 --dp-size 1 "
                                            "--attention-backend fa3 --chunked-prefill-size 8192 "
                                            "--mem-fraction-static 0.75 --sampling-defaults model")
                                       << QString() << QStringList() << 0;
    // NVIDIA GB200: SGLang's install page's docker run, with the cookbook's Blackwell flags.
    QTest::newRow("GB200 docker run")
        << s("docker run --gpus all \\\n"
             "    --shm-size 32g \\\n"
             "    -p 30000:30000 \\\n"
             "    -v ~/.cache/huggingface:/root/.cache/huggingface \\\n"
             "    --env \"HF_TOKEN=hf_abc\" \\\n"
             "    --ipc=host \\\n"
             "    lmsysorg/sglang:dev-cu13-minimax-m3 \\\n"
             "    python3 -m sglang.launch_server --model-path MiniMaxAI/MiniMax-M3.1-Flash --tp 4 \\\n"
             "    --attention-backend fa4 --moe-runner-backend deep_gemm --chunked-prefill-size 8192 \\\n"
             "    --host 0.0.0.0 --port 30000")
        << docker
        << w("--model-path MiniMaxAI/MiniMax-M3.1-Flash --tp 4 --attention-backend fa4 --moe-runner-backend "
             "deep_gemm --chunked-prefill-size 8192 --host 0.0.0.0 --port 30000")
        << s("lmsysorg/sglang:dev-cu13-minimax-m3") << l({"HF_TOKEN=hf_abc"}) << 5;
    // AMD MI355X: the environment before the command, as the generator prints it for ROCm.
    QTest::newRow("MI355X env words") << s("SGLANG_USE_AITER=1 python3 -m sglang.launch_server \\\n"
                                           "  --model-path MiniMaxAI/MiniMax-M3.1-Flash \\\n"
                                           "  --tp 4 \\\n"
                                           "  --quantization mxfp8 --dtype bfloat16 \\\n"
                                           "  --mem-fraction-static 0.80 \\\n"
                                           "  --trust-remote-code")
                                      << launch
                                      << w("--model-path MiniMaxAI/MiniMax-M3.1-Flash --tp 4 --quantization mxfp8 "
                                           "--dtype bfloat16 --mem-fraction-static 0.80 --trust-remote-code")
                                      << QString() << l({"SGLANG_USE_AITER=1"}) << 0;
    // AMD MI355X: SGLang's ROCm docker run (options joined, =, clustered -it).
    QTest::newRow("MI355X docker run")
        << s("docker run -it --rm --network=host --privileged --device=/dev/kfd --device=/dev/dri \\\n"
             "  --ipc=host --shm-size 16G --group-add video --cap-add=SYS_PTRACE \\\n"
             "  --security-opt seccomp=unconfined \\\n"
             "  -v ~/.cache/huggingface:/root/.cache/huggingface -e SGLANG_USE_AITER=1 -eHIP_FORCE_DEV_KERNARG=1 \\\n"
             "  aigmkt/minimax-m3-sglang-rocm720-mi35x:latest \\\n"
             "  python3 -m sglang.launch_server --model-path MiniMaxAI/MiniMax-M3.1-Flash --tp 4 \\\n"
             "  --attention-backend aiter --moe-runner-backend triton --watchdog-timeout 3600 --skip-server-warmup")
        << docker
        << w("--model-path MiniMaxAI/MiniMax-M3.1-Flash --tp 4 --attention-backend aiter --moe-runner-backend triton "
             "--watchdog-timeout 3600 --skip-server-warmup")
        << s("aigmkt/minimax-m3-sglang-rocm720-mi35x:latest") << l({"SGLANG_USE_AITER=1", "HIP_FORCE_DEV_KERNARG=1"})
        << 13;
    QTest::newRow("MI300X docker container run, sglang serve")
        << s("sudo docker container run --rm -e SGLANG_USE_AITER=1 aigmkt/minimax-m3-sglang-rocm700-mi30x:v1 "
             "sglang serve --model-path MiniMaxAI/MiniMax-M3.1-Flash --tp=4 --dp=2")
        << docker << w("--model-path MiniMaxAI/MiniMax-M3.1-Flash --tp=4 --dp=2")
        << s("aigmkt/minimax-m3-sglang-rocm700-mi30x:v1") << l({"SGLANG_USE_AITER=1"}) << 1;
    QTest::newRow("JSON in single quotes")
        << s("python -m sglang.launch_server --json-model-override-args '{\"rope_scaling\": {\"factor\": 2.0}}' "
             "--enable-metrics")
        << launch << l({"--json-model-override-args", R"({"rope_scaling": {"factor": 2.0}})", "--enable-metrics"})
        << QString() << QStringList() << 0;
    QTest::newRow("negative values and equals")
        << s("/usr/bin/python3 -m sglang.launch_server --max-running-requests=-1 --random-seed -1 "
             "--schedule-conservativeness -0.5")
        << launch << w("--max-running-requests=-1 --random-seed -1 --schedule-conservativeness -0.5") << QString()
        << QStringList() << 0;
    QTest::newRow("pasted from Windows, with a comment")
        << s("# SGLang configuration generator: H200 x 8\r\npython3 -m sglang.launch_server \\\r\n  --tp 8 \\\r\n  "
             "--ep-size 8\r\n")
        << launch << w("--tp 8 --ep-size 8") << QString() << QStringList() << 0;
    QTest::newRow("docker -- before the image")
        << s("docker run --rm -- lmsysorg/sglang:v0.5.23 sglang serve --tp 4") << docker << w("--tp 4")
        << s("lmsysorg/sglang:v0.5.23") << QStringList() << 1;
    QTest::newRow("no arguments") << s("sglang serve") << serve << QStringList() << QString() << QStringList() << 0;
}

void TestGeneratorCommand::generatorOutputs_readAsGiven()
{
    QFETCH(QString, text);
    QFETCH(int, form);
    QFETCH(QStringList, serverWords);
    QFETCH(QString, image);
    QFETCH(QStringList, env);
    QFETCH(int, ignored);
    const Result<recipe::GeneratorCommand> cmd = recipe::GeneratorCommand::parse(text);
    QVERIFY2(cmd, qPrintable(cmd.message()));
    QCOMPARE(int(cmd.value().form()), form);
    QCOMPARE(cmd.value().serverWords(), serverWords);
    QCOMPARE(cmd.value().image(), image);
    QCOMPARE(cmd.value().environment(), env);
    QCOMPARE(cmd.value().ignoredDockerOptions().size(), ignored);
    for (const recipe::IgnoredDockerOption &o : cmd.value().ignoredDockerOptions()) {
        QVERIFY2(!o.why.isEmpty(), qPrintable(o.option)); // every one says why
    }
}

void TestGeneratorCommand::hostile_refusedWithTheCharacterAndWhere_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("says");
    const QString start = QStringLiteral("python3 -m sglang.launch_server --tp 4");
    QTest::newRow("semicolon") << QString(start + s("; rm -rf ~")) << l({"\";\"", "line 1, column 39", "semicolon"});
    QTest::newRow("pipe") << s("python3 -m sglang.launch_server \\\n  --tp 4 | tee log")
                          << l({"\"|\"", "line 2, column 10", "pipe"});
    QTest::newRow("and-and") << QString(start + s(" && curl x")) << l({"\"&\"", "column 40", "\"&&\""});
    QTest::newRow("background") << QString(start + s(" &")) << l({"\"&\"", "background"});
    QTest::newRow("command substitution")
        << QString(start + s(" --api-key $(cat key)")) << l({"\"$\"", "column 50", "\"$(\""});
    QTest::newRow("backticks") << QString(start + s(" --api-key `cat key`")) << l({"\"`\"", "backtick"});
    QTest::newRow("backtick in double quotes") << QString(start + s(" --x \"a`id`\"")) << l({"\"`\""});
    QTest::newRow("variable") << QString(start + s(" --model-path $MODEL")) << l({"\"$\"", "variable"});
    QTest::newRow("variable in double quotes") << QString(start + s(" --x \"${HOME}/m\"")) << l({"\"$\"", "variable"});
    QTest::newRow("docker env from a variable")
        << s("docker run -e HF_TOKEN=$HF_TOKEN img sglang serve") << l({"\"$\"", "line 1, column 24"});
    QTest::newRow("bash quoting") << QString(start + s(" --x $'a\\nb'")) << l({"\"$\"", "bash"});
    QTest::newRow("redirect out") << QString(start + s(" > server.log 2>&1")) << l({"\">\"", "redirection"});
    QTest::newRow("redirect in") << QString(start + s(" < /dev/null")) << l({"\"<\"", "redirection"});
    QTest::newRow("subshell") << QString(s("(") + start + s(")")) << l({"\"(\"", "line 1, column 1", "subshell"});
    QTest::newRow("glob") << QString(start + s(" --model-path /models/*")) << l({"\"*\"", "file-name pattern"});
    QTest::newRow("question glob") << QString(start + s(" --x a?b")) << l({"\"?\""});
    QTest::newRow("unbalanced single") << QString(start + s(" --x 'abc"))
                                       << l({"(')", "line 1, column 44", "never closed"});
    QTest::newRow("unbalanced double") << s("python3 -m sglang.launch_server \\\n --x \"abc")
                                       << l({"(\")", "line 2, column 6", "never closed"});
    // Found by fuzz_generatorcommand: a backslash kept the NUL after it as a word's character.
    QTest::newRow("NUL after a backslash")
        << QString(start + s(" --x a\\") + QChar() + s("b")) << l({"\\0", "line 1, column 46", "NUL"});
    QTest::newRow("trailing backslash") << QString(start + s(" \\")) << l({"backslash", "line 1, column 40"});
    QTest::newRow("second command on a line")
        << QString(start + s("\npython3 -m sglang.launch_server --tp 4")) << l({"second command", "line 2, column 1"});
    QTest::newRow("empty") << s("  \n # only a comment\n") << l({"empty"});
    QTest::newRow("not SGLang") << s("vllm serve MiniMaxAI/MiniMax-M3.1-Flash --tensor-parallel-size 8")
                                << l({"vllm serve MiniMaxAI/MiniMax-M3.1-Flash", "sglang serve"});
    QTest::newRow("router co-launch") << s("python3 -m sglang_router.launch_server --dp-size 2")
                                      << l({"sglang_router.launch_server"});
    QTest::newRow("bash -c after the image")
        << s("docker run --gpus all lmsysorg/sglang:dev bash -c 'python3 -m sglang.launch_server'")
        << l({"After the image lmsysorg/sglang:dev", "bash -c"});
    QTest::newRow("no image") << s("docker run --rm --gpus all") << l({"names no image"});
    QTest::newRow("unknown docker option")
        << s("docker run --frobnicate x img sglang serve") << l({"--frobnicate", "Leave it out"});
    QTest::newRow("unknown short option") << s("docker run -Z img sglang serve") << l({"\"-Z\""});
    QTest::newRow("entrypoint") << s("docker run --entrypoint /bin/sh img sglang serve")
                                << l({"--entrypoint", "another program"});
    QTest::newRow("option without value") << s("docker run --shm-size") << l({"--shm-size has no value"});
    QTest::newRow("env for the docker client")
        << s("HF_TOKEN=x docker run img sglang serve") << l({"HF_TOKEN=x", "-e HF_TOKEN=x"});
    QTest::newRow("stray word") << s("sglang serve MiniMaxAI/MiniMax-M3.1-Flash --tp 4")
                                << l({"\"MiniMaxAI/MiniMax-M3.1-Flash\" belongs to no server flag"});
    QTest::newRow("word after a joined flag")
        << s("sglang serve --cuda-graph-bs=1 2 4") << l({"\"2\" belongs to no server flag"});
}

void TestGeneratorCommand::hostile_refusedWithTheCharacterAndWhere()
{
    QFETCH(QString, text);
    QFETCH(QStringList, says);
    const Result<recipe::GeneratorCommand> cmd = recipe::GeneratorCommand::parse(text);
    QVERIFY(!cmd);
    for (const QString &s : says) {
        QVERIFY2(cmd.message().contains(s), qPrintable(QStringLiteral("\"%1\" not in: %2").arg(s, cmd.message())));
    }
}

void TestGeneratorCommand::dockerForm_keepsTheEnvironmentAndSaysWhatItIgnores()
{
    const Result<recipe::GeneratorCommand> cmd = recipe::GeneratorCommand::parse(
        s("docker run --gpus all -p 30000:30000 --shm-size=32g -e HF_TOKEN -e SGLANG_USE_AITER=1 --env-file ./env "
          "lmsysorg/sglang:dev sglang serve --tp 4"));
    QVERIFY2(cmd, qPrintable(cmd.message()));
    QCOMPARE(cmd.value().environment(), l({"SGLANG_USE_AITER=1"}));
    const QList<recipe::IgnoredDockerOption> &ignored = cmd.value().ignoredDockerOptions();
    QCOMPARE(ignored.size(), 5);
    QCOMPARE(ignored.at(0).option, s("--gpus all"));
    QVERIFY(ignored.at(0).why.contains(s("GPUs")));
    QCOMPARE(ignored.at(1).option, s("-p 30000:30000"));
    QVERIFY(ignored.at(1).why.contains(s("loopback")));
    QCOMPARE(ignored.at(2).option, s("--shm-size 32g"));
    QCOMPARE(ignored.at(3).option, s("-e HF_TOKEN")); // from the operator's shell: not read
    QVERIFY(ignored.at(3).why.contains(s("HF_TOKEN=VALUE")));
    QCOMPARE(ignored.at(4).option, s("--env-file ./env"));
    QCOMPARE(cmd.value().entrypoint(), s("sglang serve"));
}

void TestGeneratorCommand::listFlags_keepEveryValueInOrder()
{
    const Result<recipe::GeneratorCommand> cmd =
        recipe::GeneratorCommand::parse(s("sglang serve --cuda-graph-bs 1 2 4 8 --tp=4 --enable-metrics --tp 8"));
    QVERIFY2(cmd, qPrintable(cmd.message()));
    const QList<recipe::ServerArg> &args = cmd.value().serverArgs();
    QCOMPARE(args.size(), 4);
    QCOMPARE(args.at(0).values, (l({"1", "2", "4", "8"})));
    QCOMPARE(args.at(1).flag, s("--tp"));
    QVERIFY(args.at(1).joined);
    QCOMPARE(args.at(1).words(), l({"--tp=4"}));
    QVERIFY(args.at(2).values.isEmpty());
    QCOMPARE(cmd.value().find(s("--tp"))->values, l({"4"})); // the first, as given
    QCOMPARE((recipe::ServerArg{s("--x"), l({"a b"}), false}.text()), s("--x 'a b'"));
}

QTEST_GUILESS_MAIN(TestGeneratorCommand)
#include "tst_generatorcommand.moc"
