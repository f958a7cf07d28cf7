// An application instance certificate and key for a node-opcua client of a test (made by our own
// CertificateStore in a folder of the test), and the PEM files node-opcua reads them from.
#pragma once

#include "ua/pki/CertificateStore.h"

#include <QFile>
#include <QString>
#include <QtGlobal>

#include <string>

namespace ua::test {

struct NodeIdentity {
    Certificate certificate;
    PrivateKey key;
};

inline NodeIdentity makeNodeIdentity(const QString& dir, const std::string& uri, const std::string& name, int bits = 2048) {
    CertificateStore store(dir.toStdString());
    CertificateRequest r;
    r.applicationUri = uri;
    r.applicationName = name;
    r.hostNames = {"127.0.0.1"};
    r.keyBits = bits;
    std::string error;
    if (!store.ensureOwnCertificate(r, &error)) qWarning("certificate for %s: %s", name.c_str(), error.c_str());
    return {store.ownCertificate(), store.ownPrivateKey()};
}

// The certificate as PEM at certPath, the key as PEM at keyPath.
inline bool writeNodeIdentityPem(const NodeIdentity& id, const QString& certPath, const QString& keyPath) {
    QFile f(certPath);
    if (!f.open(QIODevice::WriteOnly)) return false;
    const QByteArray b64 = QByteArray::fromStdString(id.certificate.der()).toBase64();
    f.write("-----BEGIN CERTIFICATE-----\n");
    for (qsizetype i = 0; i < b64.size(); i += 64) f.write(b64.mid(i, 64) + "\n");
    f.write("-----END CERTIFICATE-----\n");
    f.close();
    return id.key.savePem(keyPath.toStdString());
}

} // namespace ua::test
