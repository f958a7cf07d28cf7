// A 16 x 16 icon for each NodeClass (OPC 10000-3 5.1), drawn, not loaded: the same shapes in the
// client's address tree and references and the server's Address space page. Object a filled blue
// square, ObjectType its outline; Variable a filled green circle, VariableType its outline; Method
// a purple triangle; DataType an orange diamond; ReferenceType a grey arrow; View a teal eye;
// anything else a small grey dot. Made once per NodeClass (GUI thread only); a null icon when the
// application is not a QGuiApplication.
#pragma once

#include "ua/encoding/generated/Types.h"

#include <QIcon>

namespace ua::app {

QIcon nodeClassIcon(NodeClass nodeClass);

} // namespace ua::app
