// The stack's types that tests use as QtTest data columns, QVariant values or QSignalSpy
// arguments, declared to Qt's meta-type system once: a folder's tests are compiled together (the
// test bundles of tests/CMakeLists.txt), where a second Q_DECLARE_METATYPE of a type is an error.
#pragma once

#include "ua/client/core/ClientCore.h"
#include "ua/encoding/generated/Types.h"
#include "ua/types/ExtensionObject.h"
#include "ua/types/StatusCode.h"
#include "ua/types/Variant.h"

#include <QMetaType>

Q_DECLARE_METATYPE(ua::BuiltInType)
Q_DECLARE_METATYPE(ua::ClientState)
Q_DECLARE_METATYPE(ua::ContentFilter)
Q_DECLARE_METATYPE(ua::ExtensionObject)
Q_DECLARE_METATYPE(ua::MessageSecurityMode)
Q_DECLARE_METATYPE(ua::StatusCode)
Q_DECLARE_METATYPE(ua::Variant)
