// The PKI: the application instance certificate the store creates, and validation by OPC 10000-4
// 6.1.3 with the exact status of each case, against a test CA made with OpenSSL in PkiTestUtil.h.
#include "PkiTestUtil.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/pki/CertificateStore.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

#include <atomic>
#include <sys/stat.h>
#include <thread>

using namespace ua;
using pkitest::caSpec;
using pkitest::CertSpec;
using pkitest::issue;

// CertSpec{.cn = ...}: designated initializers leave the other members at their defaults on purpose.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#ifndef QCOMPARE_STATUS
#define QCOMPARE_STATUS(actual, expected)                                                                    \
    QCOMPARE(QString::fromStdString(StatusCode(actual).name()),                                              \
             QString::fromStdString(StatusCode(expected).name()))
#endif

namespace {

// Keys made once (RSA generation is the slow part); certificates are cheap to issue.
struct Keys {
    PrivateKey root = PrivateKey::generateRsa(2048);
    PrivateKey inter = PrivateKey::generateRsa(2048);
    PrivateKey leaf = PrivateKey::generateRsa(2048);
    PrivateKey small = PrivateKey::generateRsa(1024);
};
Keys* keys = nullptr;

// A fresh store in a temporary folder with a root CA (not yet placed anywhere).
struct Pki {
    QTemporaryDir tmp;
    std::string root = tmp.path().toStdString() + "/pki";
    CertificateStore store{root};
    Certificate rootCa = issue(caSpec("Test Root CA"), keys->root);
    Certificate interCa = issue(caSpec("Test Intermediate CA"), keys->inter, rootCa, keys->root);

    Certificate leafOf(const Certificate& ca, const PrivateKey& caKey, CertSpec spec = {}) {
        return issue(spec, keys->leaf, ca, caKey);
    }
    // Root CA trusted with its CRL; leaves issued by the root.
    void trustRoot(bool withCrl = true) {
        QVERIFY(store.addTrusted(rootCa));
        if (withCrl) QVERIFY(store.addTrustedCrl(pkitest::crl(rootCa, keys->root)));
    }
    int fileCount(const char* folder) const {
        return int(QDir(QString::fromStdString(root + "/" + folder)).entryList(QDir::Files).size());
    }
};

bool contains(const std::vector<Certificate>& list, const Certificate& c) {
    return std::find(list.begin(), list.end(), c) != list.end();
}

} // namespace

class TestPki : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { keys = new Keys; }
    void cleanupTestCase() { delete keys; }
    void ownCertificateIsCreatedLoadedAndReplaced();
    void ownCertificateValidatesWhenTrusted();
    void selfSignedLeafUntrustedThenTrusted();
    void leafOfTrustedCa();
    void revocation();
    void caOnlyInIssuers();
    void chainBuilding();
    void validityPeriods();
    void keyUsage();
    void selfSignedWithoutKeyCertSign();
    void waivingTheTrustListWaivesNothingElse();
    void securityPolicy();
    void uriAndHostName();
    void malformedAndTampered();
    void orderOfChecks();
    void fileCopiedInByHandIsSeen();
    void rejectedFolderIsBounded();
    void concurrentValidation();
    void nodeOpcuaReadsOursAndWeReadTheirs();
};

void TestPki::ownCertificateIsCreatedLoadedAndReplaced() {
    QTemporaryDir tmp;
    const std::string root = tmp.path().toStdString() + "/pki";
    CertificateRequest req;
    req.applicationUri = "urn:test:workbench:server";
    req.applicationName = "UA Workbench Test";
    req.hostNames = {"testhost.example", "127.0.0.1"};
    std::string thumb;
    {
        CertificateStore store(root);
        std::string error;
        QVERIFY2(store.ensureOwnCertificate(req, &error), error.c_str());
        const Certificate c = store.ownCertificate();
        QVERIFY(!c.isNull());
        QVERIFY(!store.ownPrivateKey().isNull());
        QCOMPARE(c.keyBits(), 2048);
        QCOMPARE(c.signatureHashBits(), 256);
        QCOMPARE(c.applicationUri(), req.applicationUri);
        QCOMPARE(c.commonName(), req.applicationName);
        QVERIFY(c.dnsNames() == std::vector<std::string>{"testhost.example"});
        QVERIFY(c.ipAddresses() == std::vector<std::string>{"127.0.0.1"});
        QVERIFY(c.isSelfSigned());
        QVERIFY(!c.isCA());
        const uint32_t ku = X509_get_key_usage(c.x509());
        QCOMPARE(
            ku & (KU_DIGITAL_SIGNATURE | KU_NON_REPUDIATION | KU_KEY_ENCIPHERMENT | KU_DATA_ENCIPHERMENT),
            uint32_t(KU_DIGITAL_SIGNATURE | KU_NON_REPUDIATION | KU_KEY_ENCIPHERMENT | KU_DATA_ENCIPHERMENT));
        QCOMPARE(X509_get_extended_key_usage(c.x509()) & (XKU_SSL_SERVER | XKU_SSL_CLIENT),
                 uint32_t(XKU_SSL_SERVER | XKU_SSL_CLIENT));
        // A day of clock skew, a positive 16-byte serial number.
        QVERIFY(c.notBefore().toQDateTime() < QDateTime::currentDateTimeUtc().addSecs(-23 * 3600));
        const ASN1_INTEGER* serial = X509_get0_serialNumber(c.x509());
        QCOMPARE(ASN1_STRING_length(serial), 16);
        QCOMPARE(ASN1_STRING_type(serial), V_ASN1_INTEGER); // not V_ASN1_NEG_INTEGER
        QCOMPARE(X509_check_private_key(c.x509(), store.ownPrivateKey().get()), 1);
        thumb = c.thumbprintHex();
        QCOMPARE(thumb.size(), std::size_t(40));

        const QStringList keysFiles =
            QDir(QString::fromStdString(root + "/own/private")).entryList(QDir::Files);
        QCOMPARE(keysFiles.size(), 1);
        struct stat st {};
        QCOMPARE(::stat((root + "/own/private/" + keysFiles.front().toStdString()).c_str(), &st), 0);
        QCOMPARE(st.st_mode & 0777, 0600u);
        QCOMPARE(::stat((root + "/own/private").c_str(), &st), 0);
        QCOMPARE(st.st_mode & 0777, 0700u);
        const QStringList certFiles =
            QDir(QString::fromStdString(root + "/own/certs")).entryList(QDir::Files);
        QCOMPARE(certFiles, QStringList{QString::fromStdString("UA Workbench Test [" + thumb + "].der")});
    }
    {
        CertificateStore again(root); // a restart loads the same pair
        QVERIFY(again.ensureOwnCertificate(req));
        QCOMPARE(again.ownCertificate().thumbprintHex(), thumb);
    }
    {
        CertificateStore moved(root);
        req.applicationUri = "urn:test:workbench:other";
        QVERIFY(moved.ensureOwnCertificate(req));
        QVERIFY(moved.ownCertificate().thumbprintHex() != thumb);
        QCOMPARE(moved.ownCertificate().applicationUri(), req.applicationUri);
        QCOMPARE(QDir(QString::fromStdString(root + "/own/certs")).entryList(QDir::Files).size(), 1);
        QCOMPARE(QDir(QString::fromStdString(root + "/own/private")).entryList(QDir::Files).size(), 1);
    }
}

void TestPki::ownCertificateValidatesWhenTrusted() {
    Pki p;
    CertificateRequest req;
    req.applicationUri = "urn:test:self";
    req.applicationName = "Self";
    req.hostNames = {"selfhost"};
    QVERIFY(p.store.ensureOwnCertificate(req));
    const Certificate c = p.store.ownCertificate();
    QVERIFY(p.store.addTrusted(c));
    ValidationOptions o;
    o.expectedApplicationUri = req.applicationUri;
    o.expectedHostName = "SelfHost"; // host names compare without case
    QCOMPARE_STATUS(p.store.validate(c.der(), o), status::Good);
}

void TestPki::selfSignedLeafUntrustedThenTrusted() {
    Pki p;
    std::vector<Certificate> reported;
    std::vector<StatusCode> reasons;
    p.store.setRejectedCallback([&](const Certificate& c, StatusCode why) {
        reported.push_back(c);
        reasons.push_back(why);
    });
    const Certificate leaf = issue(CertSpec{.cn = "Peer App"}, keys->leaf);
    QCOMPARE_STATUS(p.store.validate(leaf.der()), status::BadCertificateUntrusted);
    QCOMPARE(reported.size(), std::size_t(1));
    QVERIFY(reported.front() == leaf);
    QCOMPARE_STATUS(reasons.front(), status::BadCertificateUntrusted);
    const QString rejectedFile =
        QString::fromStdString(p.root + "/rejected/certs/Peer App [" + leaf.thumbprintHex() + "].der");
    QVERIFY2(QFile::exists(rejectedFile), qPrintable(rejectedFile));
    QVERIFY(contains(p.store.rejected(), leaf));

    QVERIFY(p.store.addTrusted(leaf));
    QVERIFY(!QFile::exists(rejectedFile));
    QVERIFY(p.store.rejected().empty());
    QVERIFY(contains(p.store.trusted(), leaf));
    QCOMPARE_STATUS(p.store.validate(leaf.der()), status::Good); // a self-signed leaf needs no CRL
    QCOMPARE(reported.size(), std::size_t(1));

    // reject() moves it back; remove() forgets it everywhere.
    QVERIFY(p.store.reject(leaf));
    QVERIFY(p.store.trusted().empty());
    QCOMPARE_STATUS(p.store.validate(leaf.der()), status::BadCertificateUntrusted);
    QVERIFY(p.store.remove(leaf));
    QVERIFY(p.store.rejected().empty());
}

void TestPki::leafOfTrustedCa() {
    Pki p;
    p.trustRoot(false);
    const Certificate leaf = p.leafOf(p.rootCa, keys->root);
    QCOMPARE_STATUS(p.store.validate(leaf.der()), status::BadCertificateRevocationUnknown);
    QVERIFY(p.store.addTrustedCrl(pkitest::crl(p.rootCa, keys->root)));
    QCOMPARE_STATUS(p.store.validate(leaf.der()), status::Good);
    QCOMPARE(p.fileCount("rejected/certs"), 0);
}

void TestPki::revocation() {
    { // the leaf listed in its CA's CRL
        Pki p;
        const Certificate leaf = p.leafOf(p.rootCa, keys->root);
        QVERIFY(p.store.addTrusted(p.rootCa));
        QVERIFY(p.store.addTrustedCrl(pkitest::crl(p.rootCa, keys->root, {leaf})));
        QCOMPARE_STATUS(p.store.validate(leaf.der()), status::BadCertificateRevoked);
        // A newer CRL without it replaces the old one.
        QVERIFY(p.store.addTrustedCrl(pkitest::crl(p.rootCa, keys->root)));
        QCOMPARE(p.fileCount("trusted/crl"), 1);
    }
    { // the intermediate listed in the root's CRL
        Pki p;
        QVERIFY(p.store.addTrusted(p.rootCa));
        QVERIFY(p.store.addTrustedCrl(pkitest::crl(p.rootCa, keys->root, {p.interCa})));
        QVERIFY(p.store.addIssuer(p.interCa));
        QVERIFY(p.store.addIssuerCrl(pkitest::crl(p.interCa, keys->inter)));
        QCOMPARE_STATUS(p.store.validate(p.leafOf(p.interCa, keys->inter).der()),
                        status::BadCertificateIssuerRevoked);
    }
    { // intermediate in issuers/ without its CRL: the leaf's revocation status is unknown
        Pki p;
        p.trustRoot();
        QVERIFY(p.store.addIssuer(p.interCa));
        const Certificate leaf = p.leafOf(p.interCa, keys->inter);
        QCOMPARE_STATUS(p.store.validate(leaf.der()), status::BadCertificateRevocationUnknown);
        QVERIFY(p.store.addIssuerCrl(pkitest::crl(p.interCa, keys->inter)));
        QCOMPARE_STATUS(p.store.validate(leaf.der()), status::Good);
    }
    { // the root's CRL missing: the intermediate's revocation status is unknown
        Pki p;
        p.trustRoot(false);
        QVERIFY(p.store.addIssuer(p.interCa));
        QVERIFY(p.store.addIssuerCrl(pkitest::crl(p.interCa, keys->inter)));
        QCOMPARE_STATUS(p.store.validate(p.leafOf(p.interCa, keys->inter).der()),
                        status::BadCertificateIssuerRevocationUnknown);
    }
}

void TestPki::caOnlyInIssuers() {
    Pki p;
    QVERIFY(p.store.addIssuer(p.rootCa));
    QVERIFY(p.store.addIssuerCrl(pkitest::crl(p.rootCa, keys->root)));
    const Certificate leaf = p.leafOf(p.rootCa, keys->root);
    int calls = 0;
    p.store.setRejectedCallback([&](const Certificate&, StatusCode) { ++calls; });
    QCOMPARE_STATUS(p.store.validate(leaf.der()), status::BadCertificateUntrusted);
    QCOMPARE(calls, 1);
    QVERIFY(contains(p.store.rejected(), leaf));
    QVERIFY(p.store.addTrusted(leaf)); // the leaf itself trusted; issuers/ completes its chain
    QCOMPARE_STATUS(p.store.validate(leaf.der()), status::Good);
}

void TestPki::chainBuilding() {
    Pki p;
    p.trustRoot();
    QVERIFY(p.store.addIssuerCrl(pkitest::crl(p.interCa, keys->inter))); // the CA itself is not stored
    const Certificate leaf = p.leafOf(p.interCa, keys->inter);
    QCOMPARE_STATUS(p.store.validate(leaf.der()), status::BadCertificateChainIncomplete);
    QCOMPARE(p.fileCount("rejected/certs"), 0); // only an untrusted leaf is copied there
    // The peer sends leaf + intermediate (OPC 10000-6 6.2.3): the chain completes.
    QCOMPARE_STATUS(p.store.validate(leaf.der() + p.interCa.der()), status::Good);
    // A trusted leaf whose issuer is unknown is no trusted chain either.
    Pki q;
    const Certificate orphan = q.leafOf(q.interCa, keys->inter);
    QVERIFY(q.store.addTrusted(orphan));
    QCOMPARE_STATUS(q.store.validate(orphan.der()), status::BadCertificateChainIncomplete);
}

void TestPki::validityPeriods() {
    Pki p;
    p.trustRoot();
    QCOMPARE_STATUS(
        p.store.validate(p.leafOf(p.rootCa, keys->root, {.notBeforeDays = -30, .notAfterDays = -1}).der()),
        status::BadCertificateTimeInvalid);
    QCOMPARE_STATUS(
        p.store.validate(p.leafOf(p.rootCa, keys->root, {.notBeforeDays = 1, .notAfterDays = 30}).der()),
        status::BadCertificateTimeInvalid);
    // An expired intermediate in issuers/ with a CRL.
    CertSpec expired = caSpec("Expired Intermediate CA");
    expired.notBeforeDays = -400;
    expired.notAfterDays = -2;
    const Certificate oldCa = issue(expired, keys->inter, p.rootCa, keys->root);
    QVERIFY(p.store.addIssuer(oldCa));
    QVERIFY(p.store.addIssuerCrl(pkitest::crl(oldCa, keys->inter)));
    QCOMPARE_STATUS(p.store.validate(p.leafOf(oldCa, keys->inter).der()),
                    status::BadCertificateIssuerTimeInvalid);
}

void TestPki::keyUsage() {
    Pki p;
    p.trustRoot();
    const Certificate noSign =
        p.leafOf(p.rootCa, keys->root, {.keyUsage = "keyEncipherment,dataEncipherment"});
    QCOMPARE_STATUS(p.store.validate(noSign.der()), status::BadCertificateUseNotAllowed);
    ValidationOptions lax;
    lax.checkKeyUsage = false;
    QCOMPARE_STATUS(p.store.validate(noSign.der(), lax), status::Good);
    const Certificate noEncrypt = p.leafOf(p.rootCa, keys->root, {.keyUsage = "digitalSignature"});
    QCOMPARE_STATUS(p.store.validate(noEncrypt.der()), status::BadCertificateUseNotAllowed);
    // An "issuer" that is no CA (basicConstraints cA=FALSE).
    const Certificate notCa =
        p.leafOf(p.rootCa, keys->root,
                 {.cn = "Not A CA", .keyUsage = "digitalSignature,keyEncipherment,keyCertSign,cRLSign"});
    QVERIFY(p.store.addIssuer(notCa));
    QVERIFY(p.store.addIssuerCrl(pkitest::crl(notCa, keys->leaf)));
    QCOMPARE_STATUS(p.store.validate(issue({.cn = "Below Not A CA"}, keys->inter, notCa, keys->leaf).der()),
                    status::BadCertificateIssuerUseNotAllowed);
}

// OPC 10000-6 6.2.2: a self-signed certificate shall include keyCertSign. One without it is
// refused at the Certificate Usage step, even from trusted/, and the reason says so.
void TestPki::selfSignedWithoutKeyCertSign() {
    Pki p;
    const Certificate leaf = issue(
        CertSpec{.cn = "No CertSign", .keyUsage = "digitalSignature,nonRepudiation,keyEncipherment,dataEncipherment"},
        keys->leaf);
    QVERIFY(p.store.addTrusted(leaf));
    std::string reason;
    QCOMPARE_STATUS(p.store.validate(leaf.der(), {}, &reason), status::BadCertificateUseNotAllowed);
    QVERIFY2(reason.find("Certificate Usage") != std::string::npos, reason.c_str());
    QVERIFY2(reason.find("keyCertSign") != std::string::npos, reason.c_str());
    // A user certificate (no application key usage checked) needs no CRL of its own either.
    ValidationOptions user;
    user.checkKeyUsage = false;
    QCOMPARE_STATUS(p.store.validate(leaf.der(), user), status::Good);
    // The same with keyCertSign is fine, and the reason of a trusted certificate is empty.
    const Certificate good = issue(CertSpec{.cn = "With CertSign"}, keys->leaf);
    QVERIFY(p.store.addTrusted(good));
    QCOMPARE_STATUS(p.store.validate(good.der(), {}, &reason), status::Good);
    QVERIFY(reason.empty());
}

// trustAllClients (waiveTrustList) waives Table 106's trust list step only: an expired or revoked
// certificate, or one refused at another step, is refused as before.
void TestPki::waivingTheTrustListWaivesNothingElse() {
    Pki p;
    ValidationOptions trustAll;
    trustAll.waiveTrustList = true;
    const Certificate selfSigned = issue(CertSpec{.cn = "Unknown Peer"}, keys->leaf);
    QCOMPARE_STATUS(p.store.validate(selfSigned.der(), trustAll), status::Good);
    QCOMPARE(p.fileCount("rejected/certs"), 0);
    const Certificate expired = issue(CertSpec{.cn = "Expired Peer", .notBeforeDays = -30, .notAfterDays = -1}, keys->leaf);
    QCOMPARE_STATUS(p.store.validate(expired.der()), status::BadCertificateUntrusted);  // the earliest step
    std::string reason;
    QCOMPARE_STATUS(p.store.validate(expired.der(), trustAll, &reason), status::BadCertificateTimeInvalid);
    QVERIFY2(reason.find("Validity Period") != std::string::npos, reason.c_str());
    // Issued by a CA that is not trusted, listed in its CRL (the CA in issuers/ with the CRL).
    const Certificate revoked = p.leafOf(p.rootCa, keys->root);
    QVERIFY(p.store.addIssuer(p.rootCa));
    QVERIFY(p.store.addIssuerCrl(pkitest::crl(p.rootCa, keys->root, {revoked})));
    QCOMPARE_STATUS(p.store.validate(revoked.der()), status::BadCertificateUntrusted);
    QCOMPARE_STATUS(p.store.validate(revoked.der(), trustAll), status::BadCertificateRevoked);
    const Certificate fine = p.leafOf(p.rootCa, keys->root, {.cn = "Fine Peer"});
    QCOMPARE_STATUS(p.store.validate(fine.der(), trustAll), status::Good);
    const Certificate noUsage = issue(CertSpec{.cn = "Sign Only", .keyUsage = "digitalSignature,keyCertSign"}, keys->leaf);
    QCOMPARE_STATUS(p.store.validate(noUsage.der(), trustAll), status::BadCertificateUseNotAllowed);
}

void TestPki::securityPolicy() {
    Pki p;
    p.trustRoot();
    const Certificate sha1 = p.leafOf(p.rootCa, keys->root, {.md = EVP_sha1()});
    QCOMPARE(sha1.signatureHashBits(), 1);
    QCOMPARE_STATUS(p.store.validate(sha1.der()), status::BadCertificatePolicyCheckFailed);
    ValidationOptions allowSha1;
    allowSha1.allowSha1Signature = true;
    QCOMPARE_STATUS(p.store.validate(sha1.der(), allowSha1), status::Good);

    const Certificate small = issue({}, keys->small, p.rootCa, keys->root);
    QCOMPARE(small.keyBits(), 1024);
    QCOMPARE_STATUS(p.store.validate(small.der()), status::BadCertificatePolicyCheckFailed);
    ValidationOptions allowSmall;
    allowSmall.minKeyBits = 1024;
    QCOMPARE_STATUS(p.store.validate(small.der(), allowSmall), status::Good);
    ValidationOptions max1024;
    max1024.minKeyBits = 1024;
    max1024.maxKeyBits = 1024;
    QCOMPARE_STATUS(p.store.validate(p.leafOf(p.rootCa, keys->root).der(), max1024),
                    status::BadCertificatePolicyCheckFailed);
}

void TestPki::uriAndHostName() {
    Pki p;
    p.trustRoot();
    const Certificate leaf =
        p.leafOf(p.rootCa, keys->root, {.uri = "urn:test:peer", .dns = {"peerhost", "peer.example"}});
    ValidationOptions o;
    o.expectedApplicationUri = "urn:test:peer";
    o.expectedHostName = "peer.example";
    QCOMPARE_STATUS(p.store.validate(leaf.der(), o), status::Good);
    o.expectedApplicationUri = "urn:test:someone-else";
    QCOMPARE_STATUS(p.store.validate(leaf.der(), o), status::BadCertificateUriInvalid);
    o.expectedApplicationUri = "urn:test:peer";
    o.expectedHostName = "otherhost";
    QCOMPARE_STATUS(p.store.validate(leaf.der(), o), status::BadCertificateHostNameInvalid);
}

void TestPki::malformedAndTampered() {
    Pki p;
    p.trustRoot();
    QCOMPARE_STATUS(p.store.validate(std::string("\x30\x82\x01\x00garbage", 11)),
                    status::BadCertificateInvalid);
    QCOMPARE_STATUS(p.store.validate(std::string()), status::BadCertificateInvalid);
    const Certificate leaf = p.leafOf(p.rootCa, keys->root);
    QCOMPARE_STATUS(p.store.validate(leaf.der() + "xx"), status::BadCertificateInvalid); // trailing bytes
    QCOMPARE_STATUS(p.store.validate(pkitest::tampered(leaf)), status::BadCertificateInvalid);
    // A trusted self-signed certificate with a broken signature is another certificate, not trusted,
    // but the signature step comes before the trust list.
    const Certificate self = issue({.cn = "Self"}, keys->leaf);
    QVERIFY(p.store.addTrusted(self));
    QCOMPARE_STATUS(p.store.validate(self.der()), status::Good);
    const std::string bad = pkitest::tampered(self);
    QVERIFY(!Certificate::fromDer(bad).isNull());
    QCOMPARE_STATUS(p.store.validate(bad), status::BadCertificateInvalid);
    QCOMPARE(p.fileCount("rejected/certs"), 0);
}

void TestPki::orderOfChecks() {
    Pki p;
    p.trustRoot(false); // no CRL: every leaf below would also be RevocationUnknown (the last steps)
    ValidationOptions o;
    o.expectedApplicationUri = "urn:test:expected";
    // Untrusted (step 5) before expired (6).
    const Certificate expiredSelf = issue({.notBeforeDays = -30, .notAfterDays = -1}, keys->leaf);
    QCOMPARE_STATUS(p.store.validate(expiredSelf.der(), o), status::BadCertificateUntrusted);
    // Policy (4) before trust (5).
    QCOMPARE_STATUS(p.store.validate(issue({.md = EVP_sha1()}, keys->leaf).der()),
                    status::BadCertificatePolicyCheckFailed);
    // Expired (6) before URI (8) before usage (9) before revocation (10).
    QCOMPARE_STATUS(
        p.store.validate(p.leafOf(p.rootCa, keys->root,
                                  {.notBeforeDays = -30, .notAfterDays = -1, .keyUsage = "keyEncipherment"})
                             .der(),
                         o),
        status::BadCertificateTimeInvalid);
    QCOMPARE_STATUS(
        p.store.validate(p.leafOf(p.rootCa, keys->root, {.keyUsage = "keyEncipherment"}).der(), o),
        status::BadCertificateUriInvalid);
    QCOMPARE_STATUS(p.store.validate(p.leafOf(p.rootCa, keys->root, {.keyUsage = "keyEncipherment"}).der()),
                    status::BadCertificateUseNotAllowed);
    // Chain incomplete (2) before untrusted (5).
    QCOMPARE_STATUS(p.store.validate(p.leafOf(p.interCa, keys->inter).der()),
                    status::BadCertificateChainIncomplete);
}

void TestPki::fileCopiedInByHandIsSeen() {
    Pki p;
    const Certificate leaf = issue({.cn = "By Hand"}, keys->leaf);
    QCOMPARE_STATUS(p.store.validate(leaf.der()), status::BadCertificateUntrusted);
    QFile f(QString::fromStdString(p.root + "/trusted/certs/by-hand.der"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(leaf.der().data(), qint64(leaf.der().size()));
    f.close();
    QCOMPARE_STATUS(p.store.validate(leaf.der()), status::Good);
    QVERIFY(QFile::remove(f.fileName()));
    QCOMPARE_STATUS(p.store.validate(leaf.der()), status::BadCertificateUntrusted);
}

void TestPki::rejectedFolderIsBounded() {
    Pki p;
    std::vector<Certificate> certs;
    for (int i = 0; i < 105; ++i) {
        certs.push_back(issue({.cn = "Peer " + std::to_string(i)}, keys->leaf));
        QCOMPARE_STATUS(p.store.validate(certs.back().der()), status::BadCertificateUntrusted);
    }
    QCOMPARE(p.fileCount("rejected/certs"), 100);
    const std::vector<Certificate> kept = p.store.rejected();
    for (int i = 0; i < 105; ++i) // the five oldest went
        QVERIFY2(contains(kept, certs[i]) == (i >= 5), qPrintable(QString::number(i)));
}

void TestPki::concurrentValidation() {
    Pki p;
    p.trustRoot();
    const Certificate good = p.leafOf(p.rootCa, keys->root);
    const Certificate stranger = issue({.cn = "Stranger"}, keys->leaf);
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < 50; ++i) {
                if (p.store.validate(good.der()) != status::Good) ++wrong;
                if (p.store.validate(stranger.der()) != status::BadCertificateUntrusted) ++wrong;
            }
        });
    }
    // The trust lists change underneath: another CA and CRL come and go.
    for (int i = 0; i < 10; ++i) {
        QVERIFY(p.store.addIssuer(p.interCa));
        QVERIFY(p.store.remove(p.interCa));
    }
    for (auto& t : threads)
        t.join();
    QCOMPARE(wrong.load(), 0);
}

void TestPki::nodeOpcuaReadsOursAndWeReadTheirs() {
    const QString node = QStringLiteral(UA_NODE_EXECUTABLE);
    if (node.isEmpty()) QSKIP("no node executable (UA_NODE_EXECUTABLE)");
    if (!QFile::exists(QStringLiteral(UA_INTEROP_DIR "/node_modules/node-opcua-crypto/package.json")))
        QSKIP("node-opcua-crypto is not installed in tests/interop/node_modules (npm ci)");
    Pki p;
    CertificateRequest req;
    req.applicationUri = "urn:test:workbench:interop";
    req.applicationName = "UA Workbench Interop";
    req.hostNames = {"workbenchhost", "10.1.2.3"};
    QVERIFY(p.store.ensureOwnCertificate(req));
    const QString ours = p.tmp.filePath("ours.der");
    const QString theirs = p.tmp.filePath("theirs.der");
    QFile f(ours);
    QVERIFY(f.open(QIODevice::WriteOnly));
    const std::string der = p.store.ownCertificate().der();
    f.write(der.data(), qint64(der.size()));
    f.close();

    QProcess proc;
    proc.start(node, {QStringLiteral(UA_PKI_TEST_DIR "/node_pki.mjs"), QStringLiteral(UA_INTEROP_DIR), ours,
                      theirs});
    QVERIFY(proc.waitForFinished(20000));
    const QByteArray out = proc.readAllStandardOutput();
    QVERIFY2(proc.exitCode() == 0, (out + proc.readAllStandardError()).constData());

    // What node-opcua read from ours.
    const QJsonObject seen = QJsonDocument::fromJson(out).object();
    QCOMPARE(seen.value("uri").toArray(), QJsonArray{QString::fromStdString(req.applicationUri)});
    QCOMPARE(seen.value("dns").toArray(), QJsonArray{"workbenchhost"});
    const QJsonObject ku = seen.value("keyUsage").toObject();
    for (const char* usage : {"digitalSignature", "nonRepudiation", "keyEncipherment", "dataEncipherment"})
        QVERIFY2(ku.value(usage).toBool(), usage);
    const QJsonObject eku = seen.value("extKeyUsage").toObject();
    QVERIFY(eku.value("serverAuth").toBool() && eku.value("clientAuth").toBool());
    QCOMPARE(seen.value("cA").toBool(true), false);
    QCOMPARE(seen.value("keyLength").toInt(), 256); // bytes
    QCOMPARE(seen.value("signatureAlgorithm").toString(), QStringLiteral("sha256WithRSAEncryption"));

    // What we read from theirs: parsed, its URI, and it validates once trusted.
    const Certificate peer = Certificate::load(theirs.toStdString());
    QVERIFY(!peer.isNull());
    QCOMPARE(peer.applicationUri(), std::string("urn:node-opcua:pki-test"));
    QVERIFY(peer.dnsNames() == std::vector<std::string>{"nodehost"});
    QCOMPARE(peer.keyBits(), 2048);
    ValidationOptions o;
    o.expectedApplicationUri = peer.applicationUri();
    o.expectedHostName = "nodehost";
    QCOMPARE_STATUS(p.store.validate(peer.der(), o), status::BadCertificateUntrusted);
    QVERIFY(p.store.addTrusted(peer));
    QCOMPARE_STATUS(p.store.validate(peer.der(), o), status::Good);
}

UA_TEST_GUILESS_MAIN(TestPki)
#include "tst_pki.moc"
