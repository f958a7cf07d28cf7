#include "models/MethodCallModel.h"

#include "core/Connection.h"
#include "ValueText.h"
#include "models/DataTypeNames.h"
#include "models/ModelCall.h"
#include "ua/client/browse/RelativePath.h"
#include "ua/encoding/generated/NodeIds.h"

namespace ua::clientapp {

namespace {
QString typeText(DataTypeNames* names, const Argument& a) {
    if (a.dataType.isNull()) return QString();
    QString t = names->nameOrLookup(a.dataType);
    if (a.valueRank >= 1)
        for (int32_t i = 0; i < a.valueRank; ++i) t += QStringLiteral("[]");
    else if (a.valueRank == 0 || a.valueRank == -3) t += QStringLiteral("[]?");
    return t;
}

// The Arguments of an InputArguments / OutputArguments Property value (Argument[]).
std::vector<Argument> argumentsOf(const Variant& v) {
    std::vector<Argument> out;
    if (const auto* list = v.get<Array<ExtensionObject>>())
        for (const ExtensionObject& eo : *list)
            if (const Argument* a = eo.get<Argument>()) out.push_back(*a);
    if (const auto* one = v.get<ExtensionObject>())
        if (const Argument* a = one->get<Argument>()) out.push_back(*a);
    return out;
}

// An input of no known built-in type (an extra input, BaseDataType): a number as a Double, else text.
app::ParseResult guessValue(const QString& text) {
    bool isNumber = false;
    const double d = text.trimmed().toDouble(&isNumber);
    if (isNumber) return app::ParseResult{Variant(d), StatusCode(), {}};
    return app::ParseResult{Variant(String::fromQString(text)), StatusCode(), {}};
}
} // namespace

// --- Outputs ----------------------------------------------------------------------------------

MethodOutputsModel::MethodOutputsModel(DataTypeNames* names, QObject* parent) : QAbstractTableModel(parent), m_names(names) {
    connect(names, &DataTypeNames::namesResolved, this, [this] {
        if (rowCount() > 0) emit dataChanged(index(0, DataTypeColumn), index(rowCount() - 1, DataTypeColumn));
    });
}

void MethodOutputsModel::setArguments(std::vector<Argument> arguments) {
    beginResetModel();
    m_arguments = std::move(arguments);
    m_values.clear();
    endResetModel();
}

void MethodOutputsModel::setValues(std::vector<Variant> values) {
    beginResetModel();
    m_values = std::move(values);
    endResetModel();
}

int MethodOutputsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(std::max(m_arguments.size(), m_values.size()));
}

int MethodOutputsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MethodOutputsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const std::size_t row = std::size_t(index.row());
    const Argument* a = row < m_arguments.size() ? &m_arguments[row] : nullptr;
    const Variant* v = row < m_values.size() ? &m_values[row] : nullptr;
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case NameColumn: return a ? a->name.toQString() : QString();
        case DataTypeColumn: return a ? typeText(m_names, *a) : (v ? QString::fromLatin1(builtInTypeName(v->type())) : QString());
        case ValueColumn: return v ? app::formatVariant(*v, 100) : QString();
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        if (index.column() == NameColumn && a) return a->description.text.toQString();
        if (index.column() == ValueColumn && v) return app::formatVariant(*v);
    }
    return {};
}

QVariant MethodOutputsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case NameColumn: return tr("Output");
    case DataTypeColumn: return tr("DataType");
    case ValueColumn: return tr("Value");
    default: return {};
    }
}

// --- Inputs and the call ----------------------------------------------------------------------

MethodCallModel::MethodCallModel(Connection* connection, QObject* parent)
    : QAbstractTableModel(parent),
      m_connection(connection),
      m_names(new DataTypeNames(connection, this)),
      m_outputs(new MethodOutputsModel(m_names, this)) {
    connect(m_names, &DataTypeNames::namesResolved, this, [this] {
        if (rowCount() > 0) emit dataChanged(index(0, DataTypeColumn), index(rowCount() - 1, DataTypeColumn));
    });
    connect(connection, &Connection::clientChanged, this, [this] { setMethod({}); });
}

void MethodCallModel::setMethod(const NodeId& methodId, const NodeId& objectId) {
    beginResetModel();
    ++m_generation;
    m_methodId = methodId;
    m_objectId = objectId;
    m_inputs.clear();
    m_rows.clear();
    m_methodStatus = StatusCode();
    m_calling = false;
    endResetModel();
    m_outputs->setArguments({});
    if (methodId.isNull()) return;
    if (objectId.isNull()) findParent();
    else readArguments();
}

void MethodCallModel::findParent() {
    Client* client = m_connection->client();
    if (!client) return emit loaded(status::BadServerNotConnected);
    BrowseRequest req;
    BrowseDescription d;
    d.nodeId = m_methodId;
    d.browseDirection = BrowseDirection::Inverse;
    d.referenceTypeId = NodeId(id::HasComponent);
    d.includeSubtypes = true;
    d.resultMask = uint32_t(BrowseResultMask::ReferenceTypeInfo);
    req.nodesToBrowse.push_back(d);
    const QString text = QString::fromStdString(m_methodId.toString());
    QObject* op = m_connection->beginOperation(tr("Find the Object of %1").arg(text));
    const quint64 generation = m_generation;
    client->browse(std::move(req), BrowseOptions{}, op,
                   detail::loggedOp<BrowseResponse>(m_connection, op, this, QStringLiteral("Browse"), QStringLiteral("parent of %1").arg(text),
                                                    [this, generation](const ServiceResult<BrowseResponse>& r) {
                                                        if (generation != m_generation) return;
                                                        StatusCode s = r.status;
                                                        if (s.isGood() && !r.response.results.empty()) {
                                                            s = r.response.results[0].statusCode;
                                                            for (const ReferenceDescription& ref : r.response.results[0].references)
                                                                if (ref.nodeId.isLocal() && ref.nodeId.namespaceUri.isNull()) {
                                                                    m_objectId = ref.nodeId.nodeId;
                                                                    break;
                                                                }
                                                        }
                                                        if (s.isGood() && m_objectId.isNull()) s = status::BadNotFound;
                                                        if (s.isBad()) return emit loaded(s);
                                                        readArguments();
                                                    }));
}

void MethodCallModel::readArguments() {
    Client* client = m_connection->client();
    if (!client) return emit loaded(status::BadServerNotConnected);
    std::vector<BrowsePath> paths{*makeBrowsePath(m_methodId, ".InputArguments"), *makeBrowsePath(m_methodId, ".OutputArguments")};
    const QString text = QString::fromStdString(m_methodId.toString());
    QObject* op = m_connection->beginOperation(tr("Read the arguments of %1").arg(text));
    const quint64 generation = m_generation;
    client->translateBrowsePaths(
        std::move(paths), op,
        detail::loggedOp<TranslateBrowsePathsToNodeIdsResponse>(
            m_connection, op, this, QStringLiteral("TranslateBrowsePaths"), QStringLiteral("arguments of %1").arg(text),
            [this, generation, text](const ServiceResult<TranslateBrowsePathsToNodeIdsResponse>& r) {
                if (generation != m_generation) return;
                if (r.status.isBad()) return emit loaded(r.status);
                // A Method without InputArguments (or OutputArguments) has no such Property: Bad_NoMatch.
                NodeId props[2];
                for (std::size_t i = 0; i < 2 && i < r.response.results.size(); ++i)
                    for (const BrowsePathTarget& t : r.response.results[i].targets)
                        if (t.remainingPathIndex == detail::kPathTargetComplete && t.targetId.isLocal() && t.targetId.namespaceUri.isNull()) {
                            props[i] = t.targetId.nodeId;
                            break;
                        }
                if (r.response.results.size() >= 1 && r.response.results[0].statusCode == status::BadNodeIdUnknown)
                    return emit loaded(status::BadNodeIdUnknown);
                ReadRequest req;
                req.timestampsToReturn = TimestampsToReturn::Neither;
                for (const NodeId& p : props) {
                    ReadValueId v;
                    v.nodeId = p.isNull() ? m_methodId : p;  // a placeholder read, ignored below
                    v.attributeId = uint32_t(AttributeId::Value);
                    req.nodesToRead.push_back(std::move(v));
                }
                Client* c = m_connection->client();
                if (!c) return emit loaded(status::BadServerNotConnected);
                QObject* op2 = m_connection->beginOperation(tr("Read the arguments of %1").arg(text));
                c->read(std::move(req), op2,
                        detail::loggedOp<ReadResponse>(
                            m_connection, op2, this, QStringLiteral("Read"), QStringLiteral("arguments of %1").arg(text),
                            [this, generation, hasIn = !props[0].isNull(), hasOut = !props[1].isNull()](const ServiceResult<ReadResponse>& rr) {
                                if (generation != m_generation) return;
                                if (rr.status.isBad()) return emit loaded(rr.status);
                                std::vector<Argument> ins, outs;
                                if (hasIn && rr.response.results.size() > 0) ins = argumentsOf(rr.response.results[0].value);
                                if (hasOut && rr.response.results.size() > 1) outs = argumentsOf(rr.response.results[1].value);
                                std::vector<NodeId> types;
                                for (const Argument& a : ins) types.push_back(a.dataType);
                                for (const Argument& a : outs) types.push_back(a.dataType);
                                beginResetModel();
                                m_inputs = ins;
                                m_rows.clear();
                                for (const Argument& a : ins) m_rows.push_back(Input{a, QString(), StatusCode(), QString(), true, false});
                                endResetModel();
                                m_outputs->setArguments(std::move(outs));
                                m_names->lookup(types);
                                emit loaded(StatusCode());
                            }));
            }));
}

bool MethodCallModel::setInputText(int row, const QString& text) {
    if (row < 0 || row >= rowCount()) return false;
    Input& in = m_rows[std::size_t(row)];
    in.text = text;
    in.result = StatusCode();
    in.error.clear();
    in.hasResult = false;
    emit dataChanged(index(row, ValueColumn), index(row, ResultColumn));
    return true;
}

QString MethodCallModel::inputText(int row) const {
    return row >= 0 && row < rowCount() ? m_rows[std::size_t(row)].text : QString();
}

void MethodCallModel::call() {
    // The previous call's outputs go now: a call that fails (here or at the server) shows none.
    clearOutputValues();
    // Trailing empty inputs are not sent (the server says which are missing).
    int last = -1;
    for (int i = 0; i < rowCount(); ++i)
        if (!m_rows[std::size_t(i)].text.trimmed().isEmpty()) last = i;
    std::vector<Variant> inputs;
    for (int i = 0; i <= last; ++i) {
        Input& in = m_rows[std::size_t(i)];
        app::ParseResult p;
        const std::optional<BuiltInType> type = in.argument.dataType.isNull() ? std::nullopt : app::builtInTypeOf(in.argument.dataType);
        const bool anyType = in.argument.dataType.isNull() || in.argument.dataType == NodeId(id::BaseDataType);
        if (type) p = app::parseValue(in.text, *type, in.argument.valueRank);
        else if (anyType) p = guessValue(in.text);
        else p = app::ParseResult{Variant(), status::BadNotSupported, tr("a structure cannot be entered as text")};
        in.result = p.status;
        in.error = p.error;
        in.hasResult = !p.ok();
        if (!p.ok()) {
            emit dataChanged(index(i, ResultColumn), index(i, ResultColumn));
            const QString name = in.argument.name.toQString();
            finishCall(p.status, name.isEmpty() ? p.error : QStringLiteral("%1: %2").arg(name, p.error));
            return;
        }
        inputs.push_back(std::move(p.value));
    }
    callWith(std::move(inputs));
}

void MethodCallModel::callWith(std::vector<Variant> inputs) {
    clearOutputValues();
    Client* client = m_connection->client();
    if (!client) return finishCall(status::BadServerNotConnected, {});
    for (Input& in : m_rows) {
        in.result = StatusCode();
        in.error.clear();
        in.hasResult = false;
    }
    if (rowCount() > 0) emit dataChanged(index(0, ResultColumn), index(rowCount() - 1, ResultColumn));
    m_calling = true;
    QStringList args;
    for (const Variant& v : inputs) args << app::formatVariant(v, 5);
    const QString detailText = QStringLiteral("%1 on %2 (%3)")
                                   .arg(QString::fromStdString(m_methodId.toString()), QString::fromStdString(m_objectId.toString()),
                                        args.join(QStringLiteral(", ")));
    QObject* op = m_connection->beginOperation(tr("Call %1").arg(QString::fromStdString(m_methodId.toString())));
    const quint64 generation = m_generation;
    auto answered = detail::onCancel(op, this, [this, generation] {
        if (generation == m_generation && m_calling) finishCall(status::BadRequestCancelledByClient, {});
    });
    client->callMethod(m_objectId, m_methodId, std::move(inputs), op,
                       detail::loggedOp<CallResponse>(
                           m_connection, op, this, QStringLiteral("Call"), detailText,
                           [this, generation, answered](const ServiceResult<CallResponse>& r) {
                               *answered = true;  // the operation's end is not a cancellation
                               if (generation != m_generation) return;
                               m_calling = false;
                               if (r.status.isBad()) return finishCall(r.status, {});
                               if (r.response.results.empty()) return finishCall(status::BadUnknownResponse, {});
                               const CallMethodResult& res = r.response.results[0];
                               for (std::size_t i = 0; i < res.inputArgumentResults.size() && i < m_rows.size(); ++i) {
                                   m_rows[i].result = res.inputArgumentResults[i];
                                   m_rows[i].hasResult = true;
                               }
                               if (rowCount() > 0) emit dataChanged(index(0, ResultColumn), index(rowCount() - 1, ResultColumn));
                               m_outputs->setValues(std::vector<Variant>(res.outputArguments.begin(), res.outputArguments.end()));
                               finishCall(res.statusCode, {});
                           }));
}

void MethodCallModel::clearOutputValues() {
    if (!m_outputs->values().empty()) m_outputs->setValues({});
}

void MethodCallModel::finishCall(StatusCode status, const QString& message) {
    m_calling = false;
    m_methodStatus = status;
    emit callFinished(status, message.isEmpty() ? app::statusName(status) : QStringLiteral("%1: %2").arg(app::statusName(status), message));
}

int MethodCallModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int MethodCallModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MethodCallModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const Input& in = m_rows[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        switch (index.column()) {
        case NameColumn: return in.declared ? in.argument.name.toQString() : tr("(extra)");
        case DataTypeColumn: return in.declared ? typeText(m_names, in.argument) : tr("any");
        case ValueColumn: return in.text;
        case ResultColumn:
            if (!in.error.isEmpty()) return QStringLiteral("%1: %2").arg(app::statusName(in.result), in.error);
            return in.hasResult ? app::statusName(in.result) : QString();
        default: return {};
        }
    case Qt::ToolTipRole:
        if (index.column() == NameColumn) return in.argument.description.text.toQString();
        return {};
    case StatusCodeRole:
        return index.column() == ResultColumn ? QVariant(uint(in.result.code)) : QVariant();
    default: return {};
    }
}

bool MethodCallModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !index.isValid() || index.column() != ValueColumn) return false;
    return setInputText(index.row(), value.toString());
}

Qt::ItemFlags MethodCallModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() == ValueColumn) f |= Qt::ItemIsEditable;
    return f;
}

QVariant MethodCallModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case NameColumn: return tr("Input");
    case DataTypeColumn: return tr("DataType");
    case ValueColumn: return tr("Value");
    case ResultColumn: return tr("Result");
    default: return {};
    }
}

bool MethodCallModel::insertRows(int row, int count, const QModelIndex& parent) {
    if (parent.isValid() || row != rowCount() || count <= 0) return false;
    beginInsertRows({}, row, row + count - 1);
    for (int i = 0; i < count; ++i) m_rows.push_back(Input{Argument{}, QString(), StatusCode(), QString(), false, false});
    endInsertRows();
    return true;
}

bool MethodCallModel::removeRows(int row, int count, const QModelIndex& parent) {
    if (parent.isValid() || count <= 0 || row < int(m_inputs.size()) || row + count > rowCount()) return false;
    beginRemoveRows({}, row, row + count - 1);
    m_rows.erase(m_rows.begin() + row, m_rows.begin() + row + count);
    endRemoveRows();
    return true;
}

} // namespace ua::clientapp
