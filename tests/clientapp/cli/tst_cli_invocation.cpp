// Which invocations of ua-client run the command line and which open the window
// (ua::clientapp::isCommandLineInvocation): a value of an option is never taken for a command.
#include "cli/CommandLine.h"

#include <QtTest>
#include "TestMain.h"
#include <string>
#include <vector>

namespace {

bool isCli(std::vector<std::string> args) {
    args.insert(args.begin(), "ua-client");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    return ua::clientapp::isCommandLineInvocation(int(args.size()), argv.data());
}

} // namespace

class TstCliInvocation : public QObject {
    Q_OBJECT
private slots:
    void commandsRunTheCommandLine() {
        QVERIFY(isCli({"read", "opc.tcp://h:4840", "i=2258"}));
        QVERIFY(isCli({"--json", "browse", "opc.tcp://h:4840"}));
        QVERIFY(isCli({"--pki", "certs", "read", "opc.tcp://h:4840", "i=2258"}));
        QVERIFY(isCli({"--help"}));
        QVERIFY(isCli({"--version"}));
        QVERIFY(isCli({"reed", "opc.tcp://h:4840"}));  // a misspelt command: the command line says so
    }
    void windowOptionsOpenTheWindow() {
        QVERIFY(!isCli({}));
        QVERIFY(!isCli({"--connect", "opc.tcp://h:4840"}));
        QVERIFY(!isCli({"--pki", "certs"}));              // the value is a plain word, not a command
        QVERIFY(!isCli({"--project", "plant"}));
        QVERIFY(!isCli({"--pki", "certs", "--connect", "opc.tcp://h:4840"}));
        QVERIFY(!isCli({"-platform", "offscreen"}));
        QVERIFY(!isCli({"--screenshots", "shots", "--connect", "opc.tcp://h:4840"}));
    }
};

UA_TEST_GUILESS_MAIN(TstCliInvocation)
#include "tst_cli_invocation.moc"
