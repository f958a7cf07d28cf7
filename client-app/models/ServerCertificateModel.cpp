#include "ServerCertificateModel.h"

#include "PushManagementCall.h"
#include "core/Connection.h"
#include "ValueText.h"

#include "ua/encoding/generated/NodeIds.h"
#include "ua/pki/Certificate.h"
#include "ua/pki/PrivateKey.h"
#include "ua/pki/SigningRequest.h"

#include <QFile>
#include <QRandomGenerator>

#include <algorithm>

namespace ua::clientapp {

namespace {

constexpr uint32_t kDefaultApplicationGroup = id::ServerConfiguration_CertificateGroups_DefaultApplicationGroup;
constexpr uint32_t kRsaSha256 = id::RsaSha256ApplicationCertificateType;
constexpr int kNonceBytes = 32;

// The name of a certificate type (OPC 10000-12 7.8.4) as the dialog shows it.
QString typeName(uint32_t type) {
    switch (type) {
    case id::RsaSha256ApplicationCertificateType:
        return QStringLiteral("RsaSha256");
    case id::EccNistP256ApplicationCertificateType:
        return QStringLiteral("EccNistP256");
    case id::EccNistP384ApplicationCertificateType:
        return QStringLiteral("EccNistP384");
    default:
        return QStringLiteral("i=%1").arg(type);
    }
}

QString utcText(const DateTime& t) { return t.toQDateTime().toUTC().toString(QStringLiteral("yyyy-MM-dd hh:mm 'UTC'")); }

// A certificate file, DER or PEM; null when it is neither.
Certificate loadCertificate(const QString& path) { return Certificate::load(path.toStdString()); }

} // namespace

ServerCertificateModel::ServerCertificateModel(Connection* connection, QObject* parent)
    : QObject(parent), m_connection(connection), m_types{kRsaSha256}, m_certificates(1) {}

QStringList ServerCertificateModel::certificateTypeNames() const {
    QStringList names;
    for (const uint32_t t : m_types) names << typeName(t);
    return names;
}

void ServerCertificateModel::setCertificateType(int index) {
    if (index < 0 || std::size_t(index) >= m_types.size() || index == m_typeIndex) return;
    m_typeIndex = index;
    m_certificate = m_certificates[std::size_t(index)];
    m_request.clear();  // a request is for the type it was made for
    emit changed();
}

void ServerCertificateModel::setBusy(bool busy) {
    if (m_busy == busy) return;
    m_busy = busy;
    emit busyChanged(busy);
}

void ServerCertificateModel::finish(const QString& action, StatusCode status, const QString& detail) {
    setBusy(false);
    emit finished(action, status, detail.isEmpty() ? detail::pushMessage(action, status) : detail);
}

QString ServerCertificateModel::certificateSummary() const {
    const Certificate c = Certificate::fromDer(m_certificate.toStdString());
    if (c.isNull()) return m_certificate.isEmpty() ? tr("(not read yet)") : tr("(not a certificate)");
    return tr("%1\nissued by %2\nvalid %3 to %4\nSHA-1 %5")
        .arg(QString::fromStdString(c.subjectName()), QString::fromStdString(c.isSelfSigned() ? std::string("itself (self-signed)") : c.issuerName()),
             utcText(c.notBefore()), utcText(c.notAfter()), QString::fromStdString(c.thumbprintHex()));
}

QString ServerCertificateModel::signingRequestSummary() const {
    if (m_request.isEmpty()) return tr("(no signing request yet)");
    const SigningRequestInfo info = parseSigningRequest(m_request.toStdString());
    if (!info.valid) return tr("(the server's request does not verify)");
    return tr("%1, %2-bit key, %3").arg(QString::fromStdString(info.subjectName)).arg(info.keyBits).arg(QString::fromStdString(info.applicationUri));
}

void ServerCertificateModel::reload() {
    const QString action = tr("GetCertificates");
    setBusy(true);
    detail::callPushMethod(m_connection, this, id::ServerConfiguration, id::ServerConfiguration_GetCertificates,
                           {Variant(NodeId(kDefaultApplicationGroup))}, action, [this, action](StatusCode st, const detail::MethodOutputs& out) {
                               const auto* types = out.size() == 2 ? out[0].get<Array<NodeId>>() : nullptr;
                               const auto* certs = out.size() == 2 ? out[1].get<Array<ByteString>>() : nullptr;
                               if (st.isGood() && (!types || !certs || types->size() != certs->size())) st = status::BadUnknownResponse;
                               if (st.isGood()) {
                                   // The type selected so far stays selected when the server still lists it.
                                   const uint32_t selected = m_types[std::size_t(m_typeIndex)];
                                   m_types.clear();
                                   m_certificates.clear();
                                   for (std::size_t i = 0; i < types->size(); ++i) {
                                       const NodeId& type = (*types)[i];
                                       if (type.namespaceIndex() != 0 || !type.isNumeric()) continue;
                                       m_types.push_back(type.numeric());
                                       m_certificates.push_back((*certs)[i].toQByteArray());
                                   }
                                   if (m_types.empty()) {  // no certificate assigned: RSA, empty
                                       m_types.push_back(kRsaSha256);
                                       m_certificates.emplace_back();
                                   }
                                   const auto at = std::find(m_types.begin(), m_types.end(), selected);
                                   const int index = at == m_types.end() ? 0 : int(at - m_types.begin());
                                   if (index != m_typeIndex) m_request.clear();
                                   m_typeIndex = index;
                                   m_certificate = m_certificates[std::size_t(index)];
                                   emit changed();
                               }
                               // Optional in 1.05 (node-opcua's push server lacks it): the rest still works.
                               if (st == StatusCode(status::BadMethodInvalid) || st == StatusCode(status::BadNotImplemented) ||
                                   st == StatusCode(status::BadNodeIdUnknown))
                                   return finish(action, st,
                                                 tr("%1: this server does not offer it (%2); signing requests and updates may still "
                                                    "work.").arg(action, app::statusName(st)));
                               finish(action, st);
                           });
}

void ServerCertificateModel::createSigningRequest(const QString& subject, bool newKey) {
    const QString action = tr("CreateSigningRequest");
    QByteArray nonce;
    if (newKey) {
        nonce.resize(kNonceBytes);
        QRandomGenerator::system()->fillRange(reinterpret_cast<quint32*>(nonce.data()), kNonceBytes / 4);
    }
    setBusy(true);
    detail::callPushMethod(m_connection, this, id::ServerConfiguration, id::ServerConfiguration_CreateSigningRequest,
                           {Variant(NodeId(kDefaultApplicationGroup)), Variant(NodeId(m_types[std::size_t(m_typeIndex)])), Variant(String::fromQString(subject)),
                            Variant(newKey), Variant(ByteString::fromQByteArray(nonce))},
                           action, [this, action](StatusCode st, const detail::MethodOutputs& out) {
                               const ByteString* request = out.empty() ? nullptr : out[0].get<ByteString>();
                               if (st.isGood() && (!request || request->isEmpty())) st = status::BadUnknownResponse;
                               if (st.isGood()) {
                                   m_request = request->toQByteArray();
                                   emit changed();
                               }
                               finish(action, st);
                           });
}

bool ServerCertificateModel::saveSigningRequest(const QString& path, QString* error) const {
    if (m_request.isEmpty()) {
        if (error) *error = tr("there is no signing request yet");
        return false;
    }
    QFile f(path);
    const QByteArray pem = "-----BEGIN CERTIFICATE REQUEST-----\n" + m_request.toBase64() + "\n-----END CERTIFICATE REQUEST-----\n";
    if (!f.open(QIODevice::WriteOnly) || f.write(pem) != pem.size()) {
        if (error) *error = f.errorString();
        return false;
    }
    return true;
}

void ServerCertificateModel::installSignedBy(const QString& caCertificateFile, const QString& caKeyFile, const QString& password,
                                             int validityDays) {
    const QString action = tr("UpdateCertificate");
    if (m_request.isEmpty())
        return finish(action, status::BadInvalidArgument, tr("%1: create a signing request first.").arg(action));
    const Certificate ca = loadCertificate(caCertificateFile);
    if (ca.isNull())
        return finish(action, status::BadInvalidArgument, tr("%1: %2 is not a certificate (DER or PEM).").arg(action, caCertificateFile));
    const PrivateKey caKey = PrivateKey::load(caKeyFile.toStdString(), password.toStdString());
    if (caKey.isNull())
        return finish(action, status::BadInvalidArgument,
                      tr("%1: %2 is not a private key, or the password is wrong.").arg(action, caKeyFile));
    std::string error;
    const Certificate signedCert = signRequest(m_request.toStdString(), ca, caKey, validityDays, &error);
    if (signedCert.isNull())
        return finish(action, status::BadInvalidArgument,
                      tr("%1: the CA cannot sign the request: %2.").arg(action, QString::fromStdString(error)));
    update(QByteArray::fromStdString(signedCert.der()), {QByteArray::fromStdString(ca.der())}, action);
}

void ServerCertificateModel::installCertificate(const QString& certificateFile, const QStringList& issuerFiles) {
    const QString action = tr("UpdateCertificate");
    const Certificate cert = loadCertificate(certificateFile);
    if (cert.isNull())
        return finish(action, status::BadInvalidArgument, tr("%1: %2 is not a certificate (DER or PEM).").arg(action, certificateFile));
    std::vector<QByteArray> issuers;
    for (const QString& f : issuerFiles) {
        const Certificate issuer = loadCertificate(f);
        if (issuer.isNull())
            return finish(action, status::BadInvalidArgument, tr("%1: %2 is not a certificate (DER or PEM).").arg(action, f));
        issuers.push_back(QByteArray::fromStdString(issuer.der()));
    }
    update(QByteArray::fromStdString(cert.der()), issuers, action);
}

void ServerCertificateModel::update(const QByteArray& certificate, const std::vector<QByteArray>& issuers, const QString& action) {
    std::vector<ByteString> issuerList;
    for (const QByteArray& i : issuers) issuerList.push_back(ByteString::fromQByteArray(i));
    setBusy(true);
    // No key: the server's current key or the pending key of its request (7.10.5).
    detail::callPushMethod(m_connection, this, id::ServerConfiguration, id::ServerConfiguration_UpdateCertificate,
                           {Variant(NodeId(kDefaultApplicationGroup)), Variant(NodeId(m_types[std::size_t(m_typeIndex)])), Variant(ByteString::fromQByteArray(certificate)),
                            Variant(Array<ByteString>(std::move(issuerList))), Variant(String("")), Variant(ByteString())},
                           action, [this, action](StatusCode st, const detail::MethodOutputs&) {
                               if (st.isGood()) m_pending = true;
                               QString detail;
                               if (st.isGood())
                                   detail = tr("%1: the server holds the new certificate until you apply the changes.").arg(action);
                               else if (st == StatusCode(status::BadCertificateChainIncomplete))
                                   detail = tr("%1: the server does not hold the CA that signed it (Bad_CertificateChainIncomplete): "
                                               "add the CA's certificate to its trust list first (Add certificate...), then install.")
                                                .arg(action);
                               finish(action, st, detail);
                           });
}

} // namespace ua::clientapp
