#include "ua/secure/CryptoThreadState.h"

#include <QThread>

#include <openssl/crypto.h>

namespace ua::crypto {

void freeThreadStateOnFinish(QThread* thread) {
    // Direct: the slot runs on the finishing thread, whose state OPENSSL_thread_stop frees.
    QObject::connect(thread, &QThread::finished, thread, [] { OPENSSL_thread_stop(); }, Qt::DirectConnection);
}

} // namespace ua::crypto
