#include "core/HistoryText.h"

#include "ValueText.h"
#include "ua/client/history/HistorianBits.h"
#include "ua/encoding/generated/NodeIds.h"

#include <QDateTime>

namespace ua::clientapp {

QString historyStatusText(StatusCode s) {
    const uint32_t infoBits = s.code & 0x0000FFFFu;
    const uint32_t historianBits = historianInfo::bitsOf(s);
    if (infoBits != 0 && infoBits != (historianInfo::kInfoTypeDataValue | historianBits)) return app::statusName(s);
    const QString name = app::statusName(StatusCode(s.base()));
    const std::string bits = historianInfo::bitsText(s);
    return bits.empty() ? name : name + QStringLiteral(" (") + QString::fromStdString(bits) + QLatin1Char(')');
}

DateTime historyValueTime(const DataValue& dv) {
    if (dv.hasSourceTimestamp) return dv.sourceTimestamp;
    if (dv.hasServerTimestamp) return dv.serverTimestamp;
    return DateTime::minValue();
}

QString historyTimeText(const DateTime& t) {
    if (t.isMin()) return QString();
    return t.toQDateTime().toString(Qt::ISODateWithMs);
}

EventFilter historyEventFilter() {
    EventFilter f;
    std::vector<SimpleAttributeOperand> select;
    for (const char* name : kHistoryEventFields) {
        SimpleAttributeOperand op;
        op.typeDefinitionId = NodeId(id::BaseEventType);
        op.browsePath = Array<QualifiedName>{QualifiedName{0, String(name)}};
        op.attributeId = uint32_t(AttributeId::Value);
        select.push_back(std::move(op));
    }
    f.selectClauses = Array<SimpleAttributeOperand>(std::move(select));
    return f;
}

HistoryReadRequest historyEventRequest(const NodeId& node, DateTime startTime, DateTime endTime, uint32_t perRequest,
                                       const ByteString& continuationPoint, bool release) {
    ReadEventDetails d;
    d.startTime = startTime;
    d.endTime = endTime;
    d.numValuesPerNode = perRequest;
    d.filter = historyEventFilter();
    HistoryReadRequest req;
    req.historyReadDetails = ExtensionObject::make(std::move(d));
    req.timestampsToReturn = TimestampsToReturn::Both;
    req.releaseContinuationPoints = release;
    HistoryReadValueId v;
    v.nodeId = node;
    v.continuationPoint = continuationPoint;
    req.nodesToRead = Array<HistoryReadValueId>{v};
    return req;
}

QString csvField(const QString& text) {
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')) &&
        !text.contains(QLatin1Char('\r')))
        return text;
    return QLatin1Char('"') + QString(text).replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
}

} // namespace ua::clientapp
