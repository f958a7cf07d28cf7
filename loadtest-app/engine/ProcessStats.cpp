// /proc readings (Linux): CPU time from /proc/PID/stat (utime + stime, fields 14 and 15, in clock
// ticks), resident memory from /proc/PID/status (VmRSS), the CPU model from /proc/cpuinfo.
#include "ProcessStats.h"

#include <QCoreApplication>
#include <QFile>
#include <QThread>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

namespace ua::loadtest {

ProcessSample sampleProcess(qint64 pid) {
    ProcessSample r;
    const std::string dir = pid == 0 ? std::string("/proc/self") : "/proc/" + std::to_string(pid);
    if (pid < 0) return r;
    if (FILE* f = std::fopen((dir + "/stat").c_str(), "r")) {
        char buf[1024] = {};
        const std::size_t n = std::fread(buf, 1, sizeof buf - 1, f);
        std::fclose(f);
        buf[n] = 0;
        // The fields after the command name (which may hold spaces and parentheses) end at the last
        // ')': state is field 3, utime 14, stime 15.
        if (const char* p = std::strrchr(buf, ')')) {
            unsigned long long utime = 0, stime = 0;
            if (std::sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) == 2)
                r.cpuMs = double(utime + stime) * 1000.0 / double(sysconf(_SC_CLK_TCK));
        }
    }
    if (FILE* f = std::fopen((dir + "/status").c_str(), "r")) {
        char line[256];
        while (std::fgets(line, sizeof line, f))
            if (std::sscanf(line, "VmRSS: %ld", &r.rssKb) == 1) break;
        std::fclose(f);
    }
    return r;
}

int logicalCores() { return QThread::idealThreadCount(); }

QString machineDescription() {
    QString model;
    QFile f(QStringLiteral("/proc/cpuinfo"));
    if (f.open(QIODevice::ReadOnly)) {
        // /proc files report size 0, so QFile::atEnd() is true at once: read it whole.
        for (const QByteArray& line : f.readAll().split('\n')) {
            if (line.startsWith("model name")) {
                const int colon = line.indexOf(':');
                if (colon >= 0) model = QString::fromUtf8(line.mid(colon + 1)).trimmed();
                break;
            }
        }
    }
    const int cores = logicalCores();
    QString s = QStringLiteral("%1 core%2").arg(cores).arg(cores == 1 ? "" : "s");
    if (!model.isEmpty()) s += QStringLiteral(", ") + model;
    return s;
}

} // namespace ua::loadtest
