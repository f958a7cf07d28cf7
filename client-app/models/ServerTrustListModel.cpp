#include "ServerTrustListModel.h"

#include "PushManagementCall.h"

#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/generated/NodeIds.h"
#include "ua/pki/Certificate.h"
#include "ua/pki/TrustListChecks.h"

namespace ua::clientapp {

namespace {

constexpr uint32_t kTrustList = id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList;
constexpr int32_t kReadPiece = 64 * 1024;
constexpr int kMaxPieces = 1024;  // 64 MiB: a server that never says "end of file" is stopped

QString utc(const DateTime& t) {
    return t.isMin() ? QString() : t.toQDateTime().toUTC().toString(QStringLiteral("yyyy-MM-dd hh:mm 'UTC'"));
}

ServerTrustListModel::Entry entryOf(ServerTrustListModel::Kind kind, const ByteString& der) {
    ServerTrustListModel::Entry e;
    e.kind = kind;
    e.der = der.toQByteArray();
    const bool crl = kind == ServerTrustListModel::Kind::TrustedCrl || kind == ServerTrustListModel::Kind::IssuerCrl;
    if (crl) {
        const CrlSummary s = crlSummary(der.str());
        e.subject = s.valid ? QString::fromStdString(s.issuerName) : QObject::tr("(not a CRL)");
        e.validTo = utc(s.nextUpdate);
        e.thumbprint = QString::fromStdString(s.thumbprintHex);
        return e;
    }
    const Certificate c = Certificate::fromDer(der.str());
    if (c.isNull()) {
        e.subject = QObject::tr("(not a certificate)");
        return e;
    }
    e.subject = QString::fromStdString(c.subjectName());
    e.thumbprint = QString::fromStdString(c.thumbprintHex());
    e.validTo = utc(c.notAfter());
    return e;
}

} // namespace

ServerTrustListModel::ServerTrustListModel(Connection* connection, QObject* parent)
    : QAbstractTableModel(parent), m_connection(connection) {}

QString ServerTrustListModel::kindName(Kind kind) {
    switch (kind) {
    case Kind::TrustedCertificate: return tr("Trusted certificate");
    case Kind::TrustedCrl: return tr("Trusted CRL");
    case Kind::IssuerCertificate: return tr("Issuer certificate");
    case Kind::IssuerCrl: return tr("Issuer CRL");
    }
    return {};
}

void ServerTrustListModel::setBusy(bool busy) {
    if (m_busy == busy) return;
    m_busy = busy;
    emit busyChanged(busy);
}

void ServerTrustListModel::finish(const QString& action, StatusCode status) {
    setBusy(false);
    emit finished(action, status, detail::pushMessage(action, status));
}

void ServerTrustListModel::call(uint32_t objectId, uint32_t methodId, std::vector<Variant> inputs, const QString& action,
                                std::function<void(StatusCode, const Outputs&)> done) {
    detail::callPushMethod(m_connection, this, objectId, methodId, std::move(inputs), action, std::move(done));
}

void ServerTrustListModel::reload() {
    const QString action = tr("Read the trust list");
    setBusy(true);
    call(kTrustList, id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Open, {Variant(uint8_t(1))}, action,
         [this, action](StatusCode st, const Outputs& out) {
             const uint32_t* handle = out.empty() ? nullptr : out[0].get<uint32_t>();
             if (st.isBad() || !handle) return finish(action, st.isBad() ? st : StatusCode(status::BadUnknownResponse));
             readPiece(*handle, QByteArray());
         });
}

void ServerTrustListModel::readPiece(uint32_t handle, QByteArray file) {
    const QString action = tr("Read the trust list");
    call(kTrustList, id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Read,
         {Variant(handle), Variant(kReadPiece)}, action, [this, action, handle, file](StatusCode st, const Outputs& out) mutable {
             const ByteString* data = out.empty() ? nullptr : out[0].get<ByteString>();
             const bool more = st.isGood() && data && !data->isEmpty() && file.size() < qsizetype(kReadPiece) * kMaxPieces;
             if (more) {
                 file.append(data->data(), qsizetype(data->size()));
                 return readPiece(handle, std::move(file));
             }
             // Closed whatever happened (a handle left open counts against the server's limit).
             call(kTrustList, id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Close, {Variant(handle)},
                  action, [this, action, st, file](StatusCode, const Outputs&) {
                      if (st.isBad()) return finish(action, st);
                      TrustListDataType list;
                      BinaryDecoder dec(reinterpret_cast<const uint8_t*>(file.constData()), std::size_t(file.size()));
                      decode(dec, list);
                      if (!dec.ok() || !dec.atEnd()) return finish(action, status::BadDecodingError);
                      setEntries(list);
                      finish(action, status::Good);
                  });
         });
}

void ServerTrustListModel::setEntries(const TrustListDataType& list) {
    beginResetModel();
    m_entries.clear();
    const std::pair<Kind, const Array<ByteString>*> lists[] = {{Kind::TrustedCertificate, &list.trustedCertificates},
                                                                {Kind::TrustedCrl, &list.trustedCrls},
                                                                {Kind::IssuerCertificate, &list.issuerCertificates},
                                                                {Kind::IssuerCrl, &list.issuerCrls}};
    for (const auto& [kind, entries] : lists)
        for (const ByteString& der : *entries) m_entries.push_back(entryOf(kind, der));
    endResetModel();
}

void ServerTrustListModel::addCertificate(const QByteArray& der) {
    const QString action = tr("AddCertificate");
    setBusy(true);
    call(kTrustList, id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_AddCertificate,
         {Variant(ByteString::fromQByteArray(der)), Variant(true)}, action, [this, action](StatusCode st, const Outputs&) {
             if (st.isGood()) m_pending = true;
             finish(action, st);
         });
}

void ServerTrustListModel::removeRow(int row) {
    const QString action = tr("RemoveCertificate");
    if (row < 0 || row >= int(m_entries.size())) return finish(action, status::BadInvalidArgument);
    const Entry& e = m_entries[std::size_t(row)];
    if (e.kind == Kind::TrustedCrl || e.kind == Kind::IssuerCrl || e.thumbprint.isEmpty())
        return finish(action, status::BadInvalidArgument);
    setBusy(true);
    call(kTrustList, id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_RemoveCertificate,
         {Variant(String::fromQString(e.thumbprint)), Variant(e.kind == Kind::TrustedCertificate)}, action,
         [this, action](StatusCode st, const Outputs&) {
             if (st.isGood()) m_pending = true;
             finish(action, st);
         });
}

void ServerTrustListModel::applyChanges() {
    const QString action = tr("ApplyChanges");
    setBusy(true);
    call(id::ServerConfiguration, id::ServerConfiguration_ApplyChanges, {}, action, [this, action](StatusCode st, const Outputs&) {
        if (st.isGood() || st == StatusCode(status::BadNothingToDo)) m_pending = false;
        finish(action, st);
        if (st.isGood()) reload();
    });
}

void ServerTrustListModel::cancelChanges() {
    const QString action = tr("CancelChanges");
    setBusy(true);
    call(id::ServerConfiguration, id::ServerConfiguration_CancelChanges, {}, action, [this, action](StatusCode st, const Outputs&) {
        if (st.isGood() || st == StatusCode(status::BadNothingToDo)) m_pending = false;
        finish(action, st);
    });
}

int ServerTrustListModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_entries.size()); }

int ServerTrustListModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ServerTrustListModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(m_entries.size())) return {};
    const Entry& e = m_entries[std::size_t(index.row())];
    if (role == Qt::ToolTipRole) return e.subject;
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case KindColumn: return kindName(e.kind);
    case SubjectColumn: return e.subject;
    case ThumbprintColumn: return e.thumbprint;
    case ValidToColumn: return e.validTo;
    default: return {};
    }
}

QVariant ServerTrustListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case KindColumn: return tr("List");
    case SubjectColumn: return tr("Subject / issuer");
    case ThumbprintColumn: return tr("Thumbprint (SHA-1)");
    case ValidToColumn: return tr("Valid until");
    default: return {};
    }
}

} // namespace ua::clientapp
