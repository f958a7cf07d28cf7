// What the push management tests of this folder share (tst_push_manager, tst_certificate_update):
// a status comparison that prints names, and the caller push management accepts.
#pragma once

#include "ua/server/certificates/PushManager.h"
#include "ua/server/users/Roles.h"

#include <QtTest>

#ifndef QCOMPARE_STATUS
#define QCOMPARE_STATUS(actual, expected)                                                                    \
    QCOMPARE(QString::fromStdString(ua::StatusCode(actual).name()),                                          \
             QString::fromStdString(ua::StatusCode(expected).name()))
#endif

namespace pushtest {

// A SecurityAdmin of Session (1, session) over a channel of mode.
inline ua::PushManager::Caller admin(int session = 1, ua::MessageSecurityMode mode = ua::MessageSecurityMode::SignAndEncrypt) {
    return ua::PushManager::Caller{ua::NodeId(uint16_t(1), uint32_t(session)), ua::roleBit(ua::Role::SecurityAdmin), mode};
}

} // namespace pushtest
