#include "SignalWatcher.h"

#include <QSocketNotifier>
#include <csignal>
#include <sys/socket.h>
#include <unistd.h>

namespace ua::app {

namespace {

int g_fds[2] = {-1, -1}; // [0] written by the handler, [1] read by the notifier
struct sigaction g_oldInt {};
struct sigaction g_oldTerm {};

extern "C" void onSignal(int number) {
    const int saved = errno;
    const char c = char(number);
    [[maybe_unused]] const ssize_t n = ::write(g_fds[0], &c, 1);
    errno = saved;
}

} // namespace

SignalWatcher::SignalWatcher(QObject* parent) : QObject(parent) {
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, g_fds) != 0) return;
    m_notifier = new QSocketNotifier(g_fds[1], QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &SignalWatcher::onReadable);
    struct sigaction sa {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    ::sigaction(SIGINT, &sa, &g_oldInt);
    ::sigaction(SIGTERM, &sa, &g_oldTerm);
}

SignalWatcher::~SignalWatcher() {
    if (!m_notifier) return;
    ::sigaction(SIGINT, &g_oldInt, nullptr);
    ::sigaction(SIGTERM, &g_oldTerm, nullptr);
    delete m_notifier;
    ::close(g_fds[0]);
    ::close(g_fds[1]);
    g_fds[0] = g_fds[1] = -1;
}

void SignalWatcher::onReadable() {
    char c = 0;
    if (::read(g_fds[1], &c, 1) == 1) emit received(int(c));
}

} // namespace ua::app
