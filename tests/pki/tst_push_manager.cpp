// Push certificate management's state (ua/server/certificates/PushManager.h, OPC 10000-12 7.8.2
// TrustListType and 7.10 ServerConfigurationType transactions) against a real CertificateStore in a
// temporary folder: who may call, the TrustList file's Open modes, Read in pieces, Write, Close and
// CloseAndUpdate, AddCertificate and RemoveCertificate, and the transaction that holds every change
// until ApplyChanges, with the exact status of each refusal. The Methods over the wire:
// tests/client/tst_push_management.cpp; node-opcua's client: tests/interop.
#include "PkiTestUtil.h"
#include "PushTestUtil.h"

#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/BinaryEncoder.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/pki/CertificateStore.h"
#include "ua/server/certificates/PushManager.h"
#include "ua/server/users/Roles.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

using namespace ua;

#pragma GCC diagnostic ignored "-Wmissing-field-initializers"


namespace {

struct PushKeys {
    PrivateKey ca = PrivateKey::generateRsa(2048);
    PrivateKey leaf = PrivateKey::generateRsa(2048);
    PrivateKey other = PrivateKey::generateRsa(2048);
};
PushKeys* pushKeys = nullptr;


std::string encoded(const TrustListDataType& d) {
    Buffer out;
    BinaryEncoder e(out);
    encode(e, d);
    return std::string(reinterpret_cast<const char*>(out.data()), out.size());
}

TrustListDataType decoded(const std::string& bytes, bool* ok) {
    TrustListDataType d;
    BinaryDecoder dec(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    decode(dec, d);
    *ok = dec.ok() && dec.atEnd();
    return d;
}

// A store with a trusted CA (and its CRL) and a trusted self-signed application certificate.
struct PushFixture {
    QTemporaryDir tmp;
    std::shared_ptr<CertificateStore> store = std::make_shared<CertificateStore>(tmp.path().toStdString() + "/pki");
    Certificate ca = pkitest::issue(pkitest::caSpec("Push Test CA"), pushKeys->ca);
    Certificate app = pkitest::issue({.cn = "Self Signed App"}, pushKeys->other);
    Certificate leaf = pkitest::issue({.cn = "CA Signed App"}, pushKeys->leaf, ca, pushKeys->ca);
    std::string caCrl = pkitest::crl(ca, pushKeys->ca);
    int64_t now = 1000;
    PushManager m;

    PushFixture() {
        store->addTrusted(ca);
        store->addTrustedCrl(caCrl);
        store->addTrusted(app);
        m.setStore(store);
        m.setClock([this] { return now; });
    }
    // The whole file of a read handle, read `piece` bytes at a time.
    std::string readAll(const PushManager::Caller& c, uint32_t h, int32_t piece) {
        std::string all;
        for (int i = 0; i < 100000; ++i) {
            ByteString data;
            if (m.read(c, h, piece, &data).isBad() || data.isEmpty()) break;
            all += data.str();
        }
        return all;
    }
    // Writes d through Open(0x06), Write (in two pieces) and CloseAndUpdate.
    StatusCode upload(const PushManager::Caller& c, const TrustListDataType& d, bool* apply) {
        uint32_t h = 0;
        if (const StatusCode s = m.open(c, 0x06, &h); s.isBad()) return s;
        const std::string bytes = encoded(d);
        const std::size_t half = bytes.size() / 2;
        if (const StatusCode s = m.write(c, h, ByteString(bytes.substr(0, half))); s.isBad()) return s;
        if (const StatusCode s = m.write(c, h, ByteString(bytes.substr(half))); s.isBad()) return s;
        return m.closeAndUpdate(c, h, apply);
    }
};

} // namespace

class TestPushManager : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { pushKeys = new PushKeys; }
    void cleanupTestCase() { delete pushKeys; }

    // SecurityAdmin over SignAndEncrypt, and nobody else (OPC 10000-12 7.2, 7.4).
    void onlySecurityAdminOverAnEncryptedChannel() {
        PushFixture f;
        uint32_t h = 0;
        PushManager::Caller op = pushtest::admin();
        op.roles = roleBit(Role::Operator) | roleBit(Role::ConfigureAdmin);
        QCOMPARE_STATUS(f.m.open(op, 0x01, &h), status::BadUserAccessDenied);
        QCOMPARE_STATUS(f.m.open(pushtest::admin(1, MessageSecurityMode::Sign), 0x01, &h), status::BadSecurityModeInsufficient);
        QCOMPARE_STATUS(f.m.open(pushtest::admin(1, MessageSecurityMode::None), 0x01, &h), status::BadSecurityModeInsufficient);
        QCOMPARE_STATUS(f.m.addCertificate(op, ByteString(f.leaf.der()), true), status::BadUserAccessDenied);
        QCOMPARE_STATUS(f.m.applyChanges(pushtest::admin(1, MessageSecurityMode::Sign)), status::BadSecurityModeInsufficient);
        std::vector<std::string> rejected;
        QCOMPARE_STATUS(f.m.getRejectedList(op, &rejected), status::BadUserAccessDenied);
        QCOMPARE(f.m.openCount(), uint16_t(0));
        PushManager noStore;  // no PKI: no channel can be encrypted
        QCOMPARE_STATUS(noStore.open(pushtest::admin(), 0x01, &h), status::BadSecurityModeInsufficient);
    }

    // Open accepts Read (0x01) and Write + EraseExisting (0x06) only (7.8.2.2).
    void openAcceptsReadAndWriteEraseOnly() {
        PushFixture f;
        uint32_t h = 0;
        for (const uint8_t mode : {uint8_t(0x00), uint8_t(0x02), uint8_t(0x03), uint8_t(0x04), uint8_t(0x07), uint8_t(0x09),
                                   uint8_t(0x0A), uint8_t(0xFF)})
            QCOMPARE_STATUS(f.m.open(pushtest::admin(), mode, &h), status::BadNotSupported);
        QCOMPARE_STATUS(f.m.open(pushtest::admin(), 0x01, &h), status::Good);
        QVERIFY(h != 0);
        QCOMPARE(f.m.openCount(), uint16_t(1));
    }

    // The file is the TrustListDataType body of the committed trust list, read in any piece size;
    // positions and handles of another Session (OPC 10000-20 4.2).
    void readTheTrustListInPieces() {
        PushFixture f;
        uint32_t h = 0;
        QCOMPARE_STATUS(f.m.open(pushtest::admin(), 0x01, &h), status::Good);
        const std::string whole = f.readAll(pushtest::admin(), h, 7);
        bool ok = false;
        const TrustListDataType d = decoded(whole, &ok);
        QVERIFY(ok);
        QCOMPARE(d.specifiedLists, uint32_t(15));
        QCOMPARE(d.trustedCertificates.size(), std::size_t(2));
        QCOMPARE(d.trustedCrls.size(), std::size_t(1));
        QCOMPARE(d.trustedCrls[0].str(), f.caCrl);
        QCOMPARE(d.issuerCertificates.size(), std::size_t(0));
        uint64_t pos = 0;
        QCOMPARE_STATUS(f.m.getPosition(pushtest::admin(), h, &pos), status::Good);
        QCOMPARE(pos, uint64_t(whole.size()));
        QCOMPARE_STATUS(f.m.setPosition(pushtest::admin(), h, 1ull << 40), status::Good);  // past the end: the end
        QCOMPARE_STATUS(f.m.getPosition(pushtest::admin(), h, &pos), status::Good);
        QCOMPARE(pos, uint64_t(whole.size()));
        QCOMPARE_STATUS(f.m.setPosition(pushtest::admin(), h, 0), status::Good);
        QCOMPARE(f.readAll(pushtest::admin(), h, 1 << 20), whole);
        ByteString data;
        QCOMPARE_STATUS(f.m.read(pushtest::admin(), h, 0, &data), status::BadInvalidArgument);
        QCOMPARE_STATUS(f.m.read(pushtest::admin(), h, -5, &data), status::BadInvalidArgument);
        QCOMPARE_STATUS(f.m.read(pushtest::admin(2), h, 10, &data), status::BadInvalidArgument);  // not its handle
        QCOMPARE_STATUS(f.m.read(pushtest::admin(), h + 1000, 10, &data), status::BadInvalidArgument);
        QCOMPARE_STATUS(f.m.write(pushtest::admin(), h, ByteString("x")), status::BadInvalidState);  // opened for reading
        QCOMPARE_STATUS(f.m.close(pushtest::admin(2), h), status::BadInvalidArgument);
        QCOMPARE_STATUS(f.m.close(pushtest::admin(), h), status::Good);
        QCOMPARE_STATUS(f.m.close(pushtest::admin(), h), status::BadInvalidArgument);
        // OpenWithMasks: only the lists asked for.
        QCOMPARE_STATUS(f.m.openWithMasks(pushtest::admin(), 16, &h), status::BadInvalidArgument);
        QCOMPARE_STATUS(f.m.openWithMasks(pushtest::admin(), 2, &h), status::Good);
        const TrustListDataType crls = decoded(f.readAll(pushtest::admin(), h, 1000), &ok);
        QVERIFY(ok);
        QCOMPARE(crls.specifiedLists, uint32_t(2));
        QCOMPARE(crls.trustedCertificates.size(), std::size_t(0));
        QCOMPARE(crls.trustedCrls.size(), std::size_t(1));
    }

    // Readers and one writer exclude each other (OPC 10000-20 4.2.2 Open).
    void oneWriterOrManyReaders() {
        PushFixture f;
        uint32_t r1 = 0, r2 = 0, w = 0;
        QCOMPARE_STATUS(f.m.open(pushtest::admin(1), 0x01, &r1), status::Good);
        QCOMPARE_STATUS(f.m.open(pushtest::admin(2), 0x01, &r2), status::Good);
        QCOMPARE_STATUS(f.m.open(pushtest::admin(1), 0x06, &w), status::BadNotWritable);
        QCOMPARE_STATUS(f.m.close(pushtest::admin(1), r1), status::Good);
        QCOMPARE_STATUS(f.m.close(pushtest::admin(2), r2), status::Good);
        QCOMPARE_STATUS(f.m.open(pushtest::admin(1), 0x06, &w), status::Good);
        QCOMPARE_STATUS(f.m.open(pushtest::admin(2), 0x01, &r2), status::BadNotReadable);
        QCOMPARE_STATUS(f.m.openWithMasks(pushtest::admin(2), 1, &r2), status::BadNotReadable);
        QCOMPARE_STATUS(f.m.addCertificate(pushtest::admin(1), ByteString(f.leaf.der()), true), status::BadInvalidState);
        QCOMPARE_STATUS(f.m.removeCertificate(pushtest::admin(1), f.app.thumbprintHex(), true), status::BadInvalidState);
        QCOMPARE_STATUS(f.m.close(pushtest::admin(1), w), status::Good);  // Close drops what was written
        QCOMPARE(f.m.transactionOwner().has_value(), false);
    }

    // CloseAndUpdate puts the new lists into a transaction; the store and its readers see nothing
    // until ApplyChanges from the same Session (7.8.2.5, 7.10.2, 7.10.9).
    void closeAndUpdateWaitsForApplyChanges() {
        PushFixture f;
        TrustListDataType d;
        d.specifiedLists = 1;  // only the trusted certificates: the CRL stays
        d.trustedCertificates = Array<ByteString>(std::vector<ByteString>{ByteString(f.ca.der()), ByteString(f.leaf.der())});
        bool apply = false;
        QCOMPARE_STATUS(f.upload(pushtest::admin(1), d, &apply), status::Good);
        QVERIFY(apply);
        const std::vector<Certificate> before = f.store->trusted();
        QCOMPARE(before.size(), std::size_t(2));
        QVERIFY(std::find(before.begin(), before.end(), f.leaf) == before.end());
        // Another Session: refused while the transaction lasts.
        uint32_t h = 0;
        QCOMPARE_STATUS(f.m.open(pushtest::admin(2), 0x06, &h), status::BadTransactionPending);
        QCOMPARE_STATUS(f.m.addCertificate(pushtest::admin(2), ByteString(f.leaf.der()), true), status::BadTransactionPending);
        QCOMPARE_STATUS(f.m.removeCertificate(pushtest::admin(2), f.app.thumbprintHex(), true), status::BadTransactionPending);
        QCOMPARE_STATUS(f.m.applyChanges(pushtest::admin(2)), status::BadSessionIdInvalid);
        QCOMPARE_STATUS(f.m.cancelChanges(pushtest::admin(2)), status::BadSessionIdInvalid);
        // It still reads the list from before.
        QCOMPARE_STATUS(f.m.open(pushtest::admin(2), 0x01, &h), status::Good);
        bool ok = false;
        QCOMPARE(decoded(f.readAll(pushtest::admin(2), h, 4096), &ok).trustedCertificates.size(), std::size_t(2));
        QCOMPARE_STATUS(f.m.close(pushtest::admin(2), h), status::Good);
        PushManager::Applied applied;
        QCOMPARE_STATUS(f.m.applyChanges(pushtest::admin(1), &applied), status::Good);
        QVERIFY(applied.trustListChanged);
        const std::vector<Certificate> trusted = f.store->trusted();
        QCOMPARE(trusted.size(), std::size_t(2));
        QVERIFY(std::find(trusted.begin(), trusted.end(), f.leaf) != trusted.end());
        QVERIFY(std::find(trusted.begin(), trusted.end(), f.app) == trusted.end());
        QCOMPARE(f.store->trustList().trustedCrls.size(), std::size_t(1));
        QVERIFY(!f.m.lastUpdateTime().isMin());
        QCOMPARE_STATUS(f.m.applyChanges(pushtest::admin(1)), status::BadNothingToDo);
        // The validation the store does now uses the new list.
        QCOMPARE_STATUS(f.store->validate(f.app.der()), status::BadCertificateUntrusted);
    }

    // What CloseAndUpdate refuses; the handle is closed in every case and the store untouched.
    void closeAndUpdateRefusals() {
        PushFixture f;
        bool apply = false;
        uint32_t h = 0;
        QCOMPARE_STATUS(f.m.open(pushtest::admin(), 0x01, &h), status::Good);
        QCOMPARE_STATUS(f.m.closeAndUpdate(pushtest::admin(), h, &apply), status::BadInvalidState);  // opened for reading
        QCOMPARE(f.m.openCount(), uint16_t(0));
        auto uploadBytes = [&](const std::string& bytes) {
            uint32_t w = 0;
            if (const StatusCode s = f.m.open(pushtest::admin(), 0x06, &w); s.isBad()) return s;
            if (const StatusCode s = f.m.write(pushtest::admin(), w, ByteString(bytes)); s.isBad()) return s;
            return f.m.closeAndUpdate(pushtest::admin(), w, &apply);
        };
        QCOMPARE_STATUS(uploadBytes("not a trust list"), status::BadDecodingError);
        TrustListDataType d;
        d.specifiedLists = 1;
        d.trustedCertificates = Array<ByteString>(std::vector<ByteString>{ByteString(f.leaf.der())});
        QCOMPARE_STATUS(uploadBytes(encoded(d) + "x"), status::BadDecodingError);  // trailing bytes
        d.specifiedLists = 0x11;
        QCOMPARE_STATUS(uploadBytes(encoded(d)), status::BadInvalidArgument);
        d.specifiedLists = 1;
        d.trustedCertificates = Array<ByteString>(std::vector<ByteString>{ByteString(pkitest::tampered(f.leaf).substr(5))});
        QCOMPARE_STATUS(uploadBytes(encoded(d)), status::BadCertificateInvalid);
        d.specifiedLists = 2;
        d.trustedCertificates = {};
        d.trustedCrls = Array<ByteString>(std::vector<ByteString>{ByteString(f.leaf.der())});  // a certificate, not a CRL
        QCOMPARE_STATUS(uploadBytes(encoded(d)), status::BadCertificateInvalid);
        QCOMPARE(f.m.openCount(), uint16_t(0));
        QCOMPARE(f.m.transactionOwner().has_value(), false);
        QCOMPARE(f.store->trusted().size(), std::size_t(2));
        // Write beyond MaxTrustListSize.
        PushManagerLimits small;
        small.maxTrustListSize = 100;
        PushManager m(small);
        m.setStore(f.store);
        QCOMPARE_STATUS(m.open(pushtest::admin(), 0x06, &h), status::Good);
        QCOMPARE_STATUS(m.write(pushtest::admin(), h, ByteString(std::string(60, 'a'))), status::Good);
        QCOMPARE_STATUS(m.write(pushtest::admin(), h, ByteString(std::string(41, 'a'))), status::BadRequestTooLarge);
        QCOMPARE_STATUS(m.write(pushtest::admin(), h, ByteString()), status::Good);  // nothing to write
    }

    // AddCertificate (7.8.2.6): one trusted certificate whose issuer the list holds.
    void addCertificate() {
        PushFixture f;
        QCOMPARE_STATUS(f.m.addCertificate(pushtest::admin(), ByteString(f.leaf.der()), false), status::BadCertificateInvalid);
        QCOMPARE_STATUS(f.m.addCertificate(pushtest::admin(), ByteString("junk"), true), status::BadCertificateInvalid);
        const Certificate stranger = pkitest::issue({.cn = "Unknown CA's"}, pushKeys->leaf,
                                                    pkitest::issue(pkitest::caSpec("Unknown CA"), pushKeys->other), pushKeys->other);
        QCOMPARE_STATUS(f.m.addCertificate(pushtest::admin(), ByteString(stranger.der()), true), status::BadCertificateChainIncomplete);
        QCOMPARE(f.m.transactionOwner().has_value(), false);
        QCOMPARE_STATUS(f.m.addCertificate(pushtest::admin(), ByteString(f.leaf.der()), true), status::Good);
        QCOMPARE(f.m.transactionOwner().value(), pushtest::admin().sessionId);
        QCOMPARE(f.store->trusted().size(), std::size_t(2));
        QCOMPARE_STATUS(f.m.applyChanges(pushtest::admin()), status::Good);
        QCOMPARE(f.store->trusted().size(), std::size_t(3));
        QCOMPARE_STATUS(f.store->validate(f.leaf.der()), status::Good);
    }

    // RemoveCertificate (7.8.2.7): by thumbprint in any case, with the CA's CRLs; a CA that another
    // certificate of the list needs stays.
    void removeCertificate() {
        PushFixture f;
        f.store->addTrusted(f.leaf);
        QCOMPARE_STATUS(f.m.removeCertificate(pushtest::admin(), "00112233", true), status::BadInvalidArgument);
        QCOMPARE_STATUS(f.m.removeCertificate(pushtest::admin(), "", true), status::BadInvalidArgument);
        QCOMPARE_STATUS(f.m.removeCertificate(pushtest::admin(), f.app.thumbprintHex(), false), status::BadInvalidArgument);  // not an issuer
        QCOMPARE_STATUS(f.m.removeCertificate(pushtest::admin(), f.ca.thumbprintHex(), true), status::BadCertificateChainIncomplete);
        QString lower = QString::fromStdString(f.leaf.thumbprintHex()).toLower();
        QCOMPARE_STATUS(f.m.removeCertificate(pushtest::admin(), lower.toStdString(), true), status::Good);
        QCOMPARE_STATUS(f.m.removeCertificate(pushtest::admin(), f.ca.thumbprintHex(), true), status::Good);
        QCOMPARE(f.store->trusted().size(), std::size_t(3));  // not before ApplyChanges
        QCOMPARE_STATUS(f.m.applyChanges(pushtest::admin()), status::Good);
        const TrustListContents t = f.store->trustList();
        QCOMPARE(t.trustedCertificates, std::vector<std::string>{f.app.der()});
        QVERIFY(t.trustedCrls.empty());  // the CA's CRL went with it
    }

    // CancelChanges and a closed Session end the transaction without a change (7.10.2, 7.10.11).
    void cancelAndSessionEndDiscard() {
        PushFixture f;
        QCOMPARE_STATUS(f.m.cancelChanges(pushtest::admin()), status::BadNothingToDo);
        QCOMPARE_STATUS(f.m.addCertificate(pushtest::admin(), ByteString(f.leaf.der()), true), status::Good);
        QCOMPARE_STATUS(f.m.cancelChanges(pushtest::admin()), status::Good);
        QCOMPARE_STATUS(f.m.applyChanges(pushtest::admin()), status::BadNothingToDo);
        QCOMPARE_STATUS(f.m.addCertificate(pushtest::admin(), ByteString(f.leaf.der()), true), status::Good);
        uint32_t h = 0;
        QCOMPARE_STATUS(f.m.open(pushtest::admin(), 0x01, &h), status::Good);
        f.m.sessionClosed(pushtest::admin().sessionId);
        QCOMPARE(f.m.openCount(), uint16_t(0));
        QCOMPARE(f.m.transactionOwner().has_value(), false);
        QCOMPARE_STATUS(f.m.addCertificate(pushtest::admin(2), ByteString(f.leaf.der()), true), status::Good);  // free again
        QCOMPARE(f.store->trusted().size(), std::size_t(2));
    }

    // ActivityTimeout (7.8.2.1): handles of a TrustList nobody called for 60 s close by themselves.
    void idleHandlesClose() {
        PushFixture f;
        uint32_t h = 0;
        QCOMPARE_STATUS(f.m.open(pushtest::admin(), 0x06, &h), status::Good);
        f.now += 59'000;
        QCOMPARE(f.m.openCount(), uint16_t(1));
        uint64_t pos = 0;
        QCOMPARE_STATUS(f.m.getPosition(pushtest::admin(), h, &pos), status::Good);  // a call: active again
        f.now += 60'001;
        QCOMPARE(f.m.openCount(), uint16_t(0));
        QCOMPARE_STATUS(f.m.getPosition(pushtest::admin(), h, &pos), status::BadInvalidArgument);
        QCOMPARE_STATUS(f.m.open(pushtest::admin(2), 0x06, &h), status::Good);  // the write lock went with it
    }

    // Per Session: another client's calls do not keep a silent writer's handle (and its lock) open.
    void anotherSessionsCallsDoNotKeepAWriterAlive() {
        PushFixture f;
        uint32_t w = 0, h = 0;
        QCOMPARE_STATUS(f.m.open(pushtest::admin(1), 0x06, &w), status::Good);
        for (int i = 0; i < 3; ++i) {
            f.now += 19'000;
            QCOMPARE_STATUS(f.m.open(pushtest::admin(2), 0x06, &h), status::BadNotWritable);
        }
        f.now += 4'000;  // 61 s since session 1's last call
        QCOMPARE_STATUS(f.m.open(pushtest::admin(2), 0x06, &h), status::Good);
        uint64_t pos = 0;
        QCOMPARE_STATUS(f.m.getPosition(pushtest::admin(1), w, &pos), status::BadInvalidArgument);
    }

    // CancelChanges waits for the writer like ApplyChanges (docs/Security.md).
    void cancelWhileWriting() {
        PushFixture f;
        QCOMPARE_STATUS(f.m.addCertificate(pushtest::admin(), ByteString(f.leaf.der()), true), status::Good);
        uint32_t w = 0;
        QCOMPARE_STATUS(f.m.open(pushtest::admin(), 0x06, &w), status::Good);
        QCOMPARE_STATUS(f.m.applyChanges(pushtest::admin()), status::BadInvalidState);
        QCOMPARE_STATUS(f.m.cancelChanges(pushtest::admin()), status::BadInvalidState);
        QCOMPARE_STATUS(f.m.close(pushtest::admin(), w), status::Good);
        QCOMPARE_STATUS(f.m.cancelChanges(pushtest::admin()), status::Good);
    }

    // CloseAndUpdate checks what Part 4 does not let it suppress: signatures and chains; a
    // certificate sent twice is kept once.
    void closeAndUpdateChecksSignaturesAndChains() {
        PushFixture f;
        bool apply = false;
        TrustListDataType d;
        d.specifiedLists = 1;
        std::string broken = f.app.der();
        broken[broken.size() - 5] = char(broken[broken.size() - 5] ^ 0x01);  // in the signature value
        QVERIFY(!Certificate::fromDer(broken).isNull());
        d.trustedCertificates = Array<ByteString>(std::vector<ByteString>{ByteString(broken)});
        QCOMPARE_STATUS(f.upload(pushtest::admin(), d, &apply), status::BadCertificateInvalid);
        d.trustedCertificates = Array<ByteString>(std::vector<ByteString>{ByteString(f.leaf.der())});  // without its CA
        QCOMPARE_STATUS(f.upload(pushtest::admin(), d, &apply), status::BadCertificateChainIncomplete);
        d.specifiedLists = 1 | 4;
        d.issuerCertificates = Array<ByteString>(std::vector<ByteString>{ByteString(f.ca.der())});
        d.trustedCertificates =
            Array<ByteString>(std::vector<ByteString>{ByteString(f.leaf.der()), ByteString(f.leaf.der()), ByteString(f.app.der())});
        QCOMPARE_STATUS(f.upload(pushtest::admin(), d, &apply), status::Good);
        QCOMPARE_STATUS(f.m.applyChanges(pushtest::admin()), status::Good);
        const TrustListContents t = f.store->trustList();
        QCOMPARE(t.trustedCertificates.size(), std::size_t(2));
        QCOMPARE(t.issuerCertificates, std::vector<std::string>{f.ca.der()});
        QCOMPARE_STATUS(f.store->validate(f.leaf.der()), status::Good);
    }

    // A trust list of hundreds: applied whole, each certificate once in the folder (the store
    // writes it in one pass: the time is logged, not asserted; docs/Security.md).
    void aLargeTrustList() {
        PushFixture f;
        std::vector<ByteString> many{ByteString(f.app.der())};
        for (int i = 0; i < 400; ++i)
            many.emplace_back(pkitest::issue({.cn = "Device " + std::to_string(i)}, pushKeys->leaf, f.ca, pushKeys->ca).der());
        TrustListDataType d;
        d.specifiedLists = 1 | 4;
        d.trustedCertificates = Array<ByteString>(std::move(many));
        d.issuerCertificates = Array<ByteString>(std::vector<ByteString>{ByteString(f.ca.der())});
        bool apply = false;
        QCOMPARE_STATUS(f.upload(pushtest::admin(), d, &apply), status::Good);
        QElapsedTimer t;
        t.start();
        QCOMPARE_STATUS(f.m.applyChanges(pushtest::admin()), status::Good);
        qInfo("ApplyChanges of 402 certificates: %lld ms", static_cast<long long>(t.elapsed()));
        QCOMPARE(f.store->trusted().size(), std::size_t(401));
        QCOMPARE(f.store->issuers().size(), std::size_t(1));
    }

    // GetRejectedList (7.10.12): the store's rejected certificates, an empty list when none.
    void rejectedList() {
        PushFixture f;
        std::vector<std::string> rejected{"stale"};
        QCOMPARE_STATUS(f.m.getRejectedList(pushtest::admin(), &rejected), status::Good);
        QVERIFY(rejected.empty());
        f.store->reject(f.leaf);
        QCOMPARE_STATUS(f.m.getRejectedList(pushtest::admin(), &rejected), status::Good);
        QCOMPARE(rejected, std::vector<std::string>{f.leaf.der()});
    }
};

UA_TEST_GUILESS_MAIN(TestPushManager)
#include "tst_push_manager.moc"
