// OpenSSL's per-thread state on our threads. OpenSSL 3 keeps state per thread (the DRBGs behind
// RAND_bytes and RAND_priv_bytes, used for nonces, RSA blinding and padding) and frees it from a
// pthread key destructor when the thread ends. QThread::wait() returns before a thread's key
// destructors have run, so a process that exits right after joining its threads (ua-client and
// ua-loadtest after a command) can run OpenSSL's atexit cleanup while a thread still holds that
// state: it is never freed (LeakSanitizer reports it at exit, about 1 KB per thread).
#pragma once

class QThread;

namespace ua::crypto {

// Makes thread free its OpenSSL state itself when its event loop ends (QThread::finished, emitted
// on the thread before wait() returns). Call once per thread, before or after it starts; harmless
// for a thread that never used OpenSSL.
void freeThreadStateOnFinish(QThread* thread);

} // namespace ua::crypto
