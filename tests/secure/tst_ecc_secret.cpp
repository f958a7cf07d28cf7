// The EccEncryptedSecret (OPC 10000-4 7.40.2.3 / 7.40.2.5, OPC 10000-6 6.8.3) and the EphemeralKeys of
// the Session's additionalHeader (6.8.2, Part 4 7.15): secrets of every length around the block size
// sealed and opened on both curves; the layout read back field by field; a secret built here from the
// text (its own salt, padding, AES-CBC through EVP and signature) that the product opens; and every
// tampering refused: each region of the bytes, the Length and KeyDataLength, another receiver key,
// another signer, another curve, a bad padding under a good signature, a truncated blob.
#include "ua/encoding/BinaryDecoder.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/pki/PrivateKey.h"
#include "ua/secure/AsymmetricCrypto.h"
#include "ua/secure/EccCrypto.h"
#include "ua/secure/EccEncryptedSecret.h"
#include "ua/secure/EccSessionKeys.h"
#include "ua/secure/SecurityPolicy.h"

#include <QRandomGenerator>
#include <QtTest>
#include "TestMain.h"

#include <openssl/evp.h>

#include <cstring>

using namespace ua;
using namespace ua::crypto;

namespace {

const SecurityPolicy& policyOf(int id) { return securityPolicy(SecurityPolicyId(id)); }

KeyType keyTypeOf(const SecurityPolicy& p) {
    return p.curve == EccCurve::NistP256 ? KeyType::EccNistP256 : KeyType::EccNistP384;
}

void addCurveRows() {
    QTest::addColumn<int>("policy");
    QTest::addRow("ECC_nistP256") << int(SecurityPolicyId::EccNistP256);
    QTest::addRow("ECC_nistP384") << int(SecurityPolicyId::EccNistP384);
}

std::string repeated(std::size_t n, char c) { return std::string(n, c); }

void put32(std::vector<uint8_t>& b, uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(uint8_t(v >> (8 * i)));
}
void put16(std::vector<uint8_t>& b, uint16_t v) {
    b.push_back(uint8_t(v));
    b.push_back(uint8_t(v >> 8));
}
void putBytes(std::vector<uint8_t>& b, const void* p, std::size_t n) {
    put32(b, uint32_t(n));
    b.insert(b.end(), static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n);
}

// A sender written from the text, not with the product's sealEccSecret: the layout of Table 183 /
// 7.40.2.5, SecretSalt of 6.8.3, the padding formula, AES-CBC through EVP, ECDSA over the rest.
// padding: -1 for the formula's; badPadByte: a padding byte of another value.
struct ReferenceSecret {
    int padding = -1;       // bytes of padding and the PayloadPaddingSize written
    int paddingField = -1;  // a PayloadPaddingSize other than the bytes written
    bool badPadByte = false;
};
std::vector<uint8_t> referenceSeal(const SecurityPolicy& p, EVP_PKEY* signer, const std::vector<uint8_t>& receiver,
                                   const std::string& nonce, const std::string& secret, ReferenceSecret opt = {}) {
    const EphemeralKey own = EphemeralKey::generate(p);
    std::vector<uint8_t> shared;
    if (own.sharedSecret(receiver.data(), receiver.size(), shared).isBad()) return {};
    const std::size_t keyLength = p.symmetricEncryptionKeyLength, ivLength = p.symmetricBlockSize;
    std::vector<uint8_t> salt;
    put16(salt, uint16_t(keyLength + ivLength));
    const char label[] = "opcua-secret";
    salt.insert(salt.end(), label, label + 12);
    salt.insert(salt.end(), own.publicKey().begin(), own.publicKey().end());
    salt.insert(salt.end(), receiver.begin(), receiver.end());
    const std::vector<uint8_t> keys =
        hkdf(p, shared.data(), shared.size(), salt.data(), salt.size(), salt.data(), salt.size(), keyLength + ivLength);

    std::vector<uint8_t> b = {0x01, 0x00, 0x8A, 0x44, 0x01};  // four-byte NodeId i=17546, EncodingMask 1
    const std::size_t lengthAt = b.size();
    put32(b, 0);
    putBytes(b, p.uri.data(), p.uri.size());
    put32(b, 0xFFFFFFFF);  // Certificate: null, the receiver knows it
    for (int i = 0; i < 8; ++i) b.push_back(uint8_t(0x10 + i));  // SigningTime
    put16(b, uint16_t(8 + own.publicKey().size() + receiver.size()));
    putBytes(b, own.publicKey().data(), own.publicKey().size());
    putBytes(b, receiver.data(), receiver.size());
    const std::size_t payloadAt = b.size();
    putBytes(b, nonce.data(), nonce.size());
    putBytes(b, secret.data(), secret.size());
    const std::size_t data = 4 + nonce.size() + 4 + secret.size() + 2;
    std::size_t padding = data % ivLength == 0 ? 0 : ivLength - data % ivLength;
    if (padding + secret.size() < ivLength) padding += ivLength;
    if (opt.padding >= 0) padding = std::size_t(opt.padding);
    for (std::size_t i = 0; i < padding; ++i) b.push_back(uint8_t(padding));
    if (opt.badPadByte && padding > 0) b[b.size() - 1] ^= 0x5A;
    put16(b, uint16_t(opt.paddingField >= 0 ? std::size_t(opt.paddingField) : padding));
    const std::size_t signatureSize = 2 * (p.curve == EccCurve::NistP256 ? 32 : 48);
    const uint32_t length = uint32_t(b.size() - lengthAt - 4 + signatureSize);
    std::memcpy(b.data() + lengthAt, &length, 4);

    EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
    int n = 0, tail = 0;
    const bool ok = EVP_EncryptInit_ex(ctx, keyLength == 16 ? EVP_aes_128_cbc() : EVP_aes_256_cbc(), nullptr, keys.data(),
                                       keys.data() + keyLength) == 1 &&
                    EVP_CIPHER_CTX_set_padding(ctx, 0) == 1 &&
                    EVP_EncryptUpdate(ctx, b.data() + payloadAt, &n, b.data() + payloadAt, int(b.size() - payloadAt)) == 1 &&
                    EVP_EncryptFinal_ex(ctx, b.data() + payloadAt + n, &tail) == 1;
    EVP_CIPHER_CTX_free(ctx);
    if (!ok) return {};
    std::vector<uint8_t> signature;
    if (asymmetricSign(p, signer, b.data(), b.size(), signature).isBad()) return {};
    b.insert(b.end(), signature.begin(), signature.end());
    return b;
}

} // namespace

class TestEccSecret : public QObject {
    Q_OBJECT
private slots:
    void sealedSecretsOpen_data();
    void sealedSecretsOpen();
    void layoutIsTheTables_data() { addCurveRows(); }
    void layoutIsTheTables();
    void referenceSecretOpens_data() { addCurveRows(); }
    void referenceSecretOpens();
    void tamperedSecretsAreRefused_data() { addCurveRows(); }
    void tamperedSecretsAreRefused();
    void randomMutationsNeverOpen();
    void badPaddingUnderAGoodSignatureIsRefused_data() { addCurveRows(); }
    void badPaddingUnderAGoodSignatureIsRefused();
    void wrongKeysAreRefused_data() { addCurveRows(); }
    void wrongKeysAreRefused();
    void sealRefusesWhatItCannotSign();
    void ephemeralKeyHeaders_data() { addCurveRows(); }
    void ephemeralKeyHeaders();
};

void TestEccSecret::sealedSecretsOpen_data() {
    QTest::addColumn<int>("policy");
    QTest::addColumn<int>("secretLength");
    for (const int policy : {int(SecurityPolicyId::EccNistP256), int(SecurityPolicyId::EccNistP384)})
        for (const int length : {0, 1, 5, 6, 15, 16, 17, 31, 32, 64, 300}) {
            const char* name = policy == int(SecurityPolicyId::EccNistP256) ? "P-256" : "P-384";
            QTest::addRow("%s, %d bytes", name, length) << policy << length;
        }
}

void TestEccSecret::sealedSecretsOpen() {
    QFETCH(int, policy);
    QFETCH(int, secretLength);
    const SecurityPolicy& p = policyOf(policy);
    const PrivateKey client = PrivateKey::generateEc(keyTypeOf(p));
    const EphemeralKey server = EphemeralKey::generate(p);
    const std::string nonce = repeated(32, 'n'), secret = repeated(std::size_t(secretLength), 's');
    EccSecretToSeal in;
    in.policy = &p;
    in.signingKey = client.get();
    in.receiverPublicKey = server.publicKey();
    in.nonce = nonce;
    in.secret = secret;
    in.signingTime = DateTime::now();
    std::vector<uint8_t> sealed;
    QCOMPARE(sealEccSecret(in, sealed), StatusCode(status::Good));
    // The secret is not in the clear anywhere.
    if (secretLength >= 5)
        QVERIFY(std::search(sealed.begin(), sealed.end(), secret.begin(), secret.begin() + 5) == sealed.end());
    std::string nonceOut, secretOut;
    QCOMPARE(openEccSecret(server, client.get(), sealed.data(), sealed.size(), nonceOut, secretOut), StatusCode(status::Good));
    QCOMPARE(nonceOut, nonce);
    QCOMPARE(secretOut, secret);
    // A new EphemeralKey per secret: the same input never gives the same bytes.
    std::vector<uint8_t> again;
    QCOMPARE(sealEccSecret(in, again), StatusCode(status::Good));
    QVERIFY(again != sealed);
}

void TestEccSecret::layoutIsTheTables() {
    QFETCH(int, policy);
    const SecurityPolicy& p = policyOf(policy);
    const PrivateKey client = PrivateKey::generateEc(keyTypeOf(p));
    const EphemeralKey server = EphemeralKey::generate(p);
    const std::string certificate = "not a real certificate, only bytes";
    const std::string nonce = repeated(32, 'n'), secret = "password";
    EccSecretToSeal in{&p, client.get(), certificate, server.publicKey(), nonce, secret, DateTime{1234567}};
    std::vector<uint8_t> sealed;
    QCOMPARE(sealEccSecret(in, sealed), StatusCode(status::Good));

    BinaryDecoder d(sealed.data(), sealed.size());
    QCOMPARE(d.readPod<uint8_t>(), uint8_t(0x01));   // four-byte NodeId
    QCOMPARE(d.readPod<uint8_t>(), uint8_t(0));      // namespace 0
    QCOMPARE(d.readPod<uint16_t>(), uint16_t(17546)); // the EccEncryptedSecret DataType
    QCOMPARE(d.readPod<uint8_t>(), uint8_t(1));      // EncodingMask
    const int32_t length = d.readPod<int32_t>();
    QCOMPARE(std::size_t(length), d.remaining());
    String uri;
    ByteString cert, sender, receiver;
    DateTime time;
    decode(d, uri);
    decode(d, cert);
    decode(d, time);
    QCOMPARE(uri.view(), p.uri);
    QCOMPARE(cert.str(), certificate);
    QCOMPARE(time.wireTicks(), int64_t(1234567));
    const uint16_t keyDataLength = d.readPod<uint16_t>();
    const std::size_t before = d.remaining();
    decode(d, sender);
    decode(d, receiver);
    QCOMPARE(std::size_t(keyDataLength), before - d.remaining());
    QCOMPARE(sender.size(), std::size_t(p.nonceLength));
    QCOMPARE(std::vector<uint8_t>(receiver.data(), receiver.data() + receiver.size()), server.publicKey());
    // Payload: 4 + 32 + 4 + 8 + 2 = 50 bytes, padded by 14 to 64 (and padding + secret >= 16).
    const std::size_t signatureSize = p.curve == EccCurve::NistP256 ? 64 : 96;
    QCOMPARE(d.remaining(), std::size_t(64) + signatureSize);

    EccSecretHeader header;
    QCOMPARE(readEccSecretHeader(sealed.data(), sealed.size(), header), StatusCode(status::Good));
    QCOMPARE(header.certificate, certificate);
    QCOMPARE(header.securityPolicyUri, std::string(p.uri));
    QCOMPARE(header.receiverPublicKey, server.publicKey());
    QCOMPARE(header.senderPublicKey, std::vector<uint8_t>(sender.data(), sender.data() + sender.size()));
}

void TestEccSecret::referenceSecretOpens() {
    QFETCH(int, policy);
    const SecurityPolicy& p = policyOf(policy);
    const PrivateKey client = PrivateKey::generateEc(keyTypeOf(p));
    const EphemeralKey server = EphemeralKey::generate(p);
    for (const std::size_t length : {std::size_t(0), std::size_t(3), std::size_t(16), std::size_t(40)}) {
        const std::string nonce = repeated(32, 'N'), secret = repeated(length, 'x');
        const std::vector<uint8_t> b = referenceSeal(p, client.get(), server.publicKey(), nonce, secret);
        QVERIFY(!b.empty());
        std::string nonceOut, secretOut;
        QCOMPARE(openEccSecret(server, client.get(), b.data(), b.size(), nonceOut, secretOut), StatusCode(status::Good));
        QCOMPARE(secretOut, secret);
        QCOMPARE(nonceOut, nonce);
    }
}

void TestEccSecret::tamperedSecretsAreRefused() {
    QFETCH(int, policy);
    const SecurityPolicy& p = policyOf(policy);
    const PrivateKey client = PrivateKey::generateEc(keyTypeOf(p));
    const EphemeralKey server = EphemeralKey::generate(p);
    const std::string nonce = repeated(32, 'n'), secret = "correct horse battery staple";
    EccSecretToSeal in{&p, client.get(), {}, server.publicKey(), nonce, secret, DateTime::now()};
    std::vector<uint8_t> sealed;
    QCOMPARE(sealEccSecret(in, sealed), StatusCode(status::Good));
    std::string n, s;
    // One byte flipped anywhere (the TypeId, the Length, the policy, the keys, the payload, the
    // Signature): refused, and nothing comes out.
    for (std::size_t at = 0; at < sealed.size(); at += 7) {
        std::vector<uint8_t> bad = sealed;
        bad[at] ^= 0x01;
        s = "untouched";
        QVERIFY2(openEccSecret(server, client.get(), bad.data(), bad.size(), n, s).isBad(), qPrintable(QString::number(at)));
        QCOMPARE(s, std::string("untouched"));
    }
    // Truncated, extended, empty.
    for (const std::size_t cut : {std::size_t(1), std::size_t(16), sealed.size() / 2, sealed.size()}) {
        const std::vector<uint8_t> shorter(sealed.begin(), sealed.end() - std::ptrdiff_t(cut));
        QCOMPARE(openEccSecret(server, client.get(), shorter.data(), shorter.size(), n, s), StatusCode(status::BadSecurityChecksFailed));
    }
    std::vector<uint8_t> longer = sealed;
    longer.push_back(0);
    QCOMPARE(openEccSecret(server, client.get(), longer.data(), longer.size(), n, s), StatusCode(status::BadSecurityChecksFailed));
    QCOMPARE(openEccSecret(server, client.get(), nullptr, 0, n, s), StatusCode(status::BadSecurityChecksFailed));
    EccSecretHeader header;
    QCOMPARE(readEccSecretHeader(longer.data(), longer.size(), header), StatusCode(status::BadSecurityChecksFailed));
    // The untouched bytes still open.
    QCOMPARE(openEccSecret(server, client.get(), sealed.data(), sealed.size(), n, s), StatusCode(status::Good));
    QCOMPARE(s, secret);
}

// A fuzz-like sweep run in every suite (ASan too): random changes of a good secret (bytes replaced,
// cut, appended, the Length and KeyDataLength fields set to random values) are refused, never read
// outside the bytes, and random bytes are no header.
void TestEccSecret::randomMutationsNeverOpen() {
    const SecurityPolicy& p = securityPolicy(SecurityPolicyId::EccNistP256);
    const PrivateKey client = PrivateKey::generateEc(KeyType::EccNistP256);
    const EphemeralKey server = EphemeralKey::generate(p);
    const std::string nonce = repeated(32, 'n'), secret = "pw";
    EccSecretToSeal in{&p, client.get(), {}, server.publicKey(), nonce, secret, DateTime::now()};
    std::vector<uint8_t> sealed;
    QCOMPARE(sealEccSecret(in, sealed), StatusCode(status::Good));
    QRandomGenerator random(20261206);  // fixed: a failure repeats
    std::string n, s;
    EccSecretHeader header;
    for (int i = 0; i < 3000; ++i) {
        std::vector<uint8_t> bad = sealed;
        switch (random.bounded(4)) {
        case 0:
            for (int k = 1 + int(random.bounded(4)); k > 0; --k) bad[random.bounded(uint32_t(bad.size()))] = uint8_t(random.bounded(256));
            break;
        case 1:
            bad.resize(random.bounded(uint32_t(bad.size())));
            break;
        case 2:
            for (int k = 1 + int(random.bounded(64)); k > 0; --k) bad.push_back(uint8_t(random.bounded(256)));
            break;
        default: {  // the Length (offset 5) or the KeyDataLength (after the policy, certificate and time)
            const std::size_t at = random.bounded(2) ? 5 : 5 + 4 + 4 + p.uri.size() + 4 + 8;
            const uint32_t value = random.generate();
            std::memcpy(bad.data() + at, &value, random.bounded(2) ? 2 : 4);
            break;
        }
        }
        if (bad == sealed) continue;
        QVERIFY2(openEccSecret(server, client.get(), bad.data(), bad.size(), n, s).isBad(), qPrintable(QString::number(i)));
        std::vector<uint8_t> noise(random.bounded(600));
        for (uint8_t& b : noise) b = uint8_t(random.bounded(256));
        // Noise that does not start with the TypeId i=17546 and EncodingMask 1 is refused.
        const uint8_t prefix[] = {0x01, 0x00, 0x8A, 0x44, 0x01};
        if (noise.size() < 5 || !std::equal(prefix, prefix + 5, noise.begin()))
            QVERIFY(readEccSecretHeader(noise.data(), noise.size(), header).isBad());
    }
    QCOMPARE(openEccSecret(server, client.get(), sealed.data(), sealed.size(), n, s), StatusCode(status::Good));
}

void TestEccSecret::badPaddingUnderAGoodSignatureIsRefused() {
    QFETCH(int, policy);
    const SecurityPolicy& p = policyOf(policy);
    const PrivateKey client = PrivateKey::generateEc(keyTypeOf(p));
    const EphemeralKey server = EphemeralKey::generate(p);
    const std::string nonce = repeated(32, 'n'), secret = "pw";
    std::string n, s;
    // A padding byte of another value.
    ReferenceSecret badByte;
    badByte.badPadByte = true;
    std::vector<uint8_t> b = referenceSeal(p, client.get(), server.publicKey(), nonce, secret, badByte);
    QVERIFY(!b.empty());
    QCOMPARE(openEccSecret(server, client.get(), b.data(), b.size(), n, s), StatusCode(status::BadSecurityChecksFailed));
    // 4 + 32 + 4 + 2 + 2 = 44 bytes: 4 bytes of padding fill 48, but padding + secret < 16, so 20.
    // A PayloadPaddingSize one block more than the padding written, or past the payload.
    for (const int field : {20 + 16, 20 - 1, 1000}) {
        ReferenceSecret wrongSize;
        wrongSize.paddingField = field;
        b = referenceSeal(p, client.get(), server.publicKey(), nonce, secret, wrongSize);
        QVERIFY(!b.empty());
        QCOMPARE(openEccSecret(server, client.get(), b.data(), b.size(), n, s), StatusCode(status::BadSecurityChecksFailed));
    }
    // More padding than the formula's, consistent with its size: accepted (the padding obscures the
    // secret's length; docs/Security.md).
    ReferenceSecret longer;
    longer.padding = 20 + 16;
    b = referenceSeal(p, client.get(), server.publicKey(), nonce, secret, longer);
    QCOMPARE(openEccSecret(server, client.get(), b.data(), b.size(), n, s), StatusCode(status::Good));
    QCOMPARE(s, secret);
    // The formula's padding from the same builder opens (so the refusals above are the padding's).
    b = referenceSeal(p, client.get(), server.publicKey(), nonce, secret);
    QCOMPARE(openEccSecret(server, client.get(), b.data(), b.size(), n, s), StatusCode(status::Good));
    QCOMPARE(s, secret);
}

void TestEccSecret::wrongKeysAreRefused() {
    QFETCH(int, policy);
    const SecurityPolicy& p = policyOf(policy);
    const SecurityPolicy& other = policyOf(int(p.curve == EccCurve::NistP256 ? SecurityPolicyId::EccNistP384 : SecurityPolicyId::EccNistP256));
    const PrivateKey client = PrivateKey::generateEc(keyTypeOf(p));
    const PrivateKey stranger = PrivateKey::generateEc(keyTypeOf(p));
    const EphemeralKey server = EphemeralKey::generate(p);
    const EphemeralKey later = EphemeralKey::generate(p);
    const EphemeralKey otherCurve = EphemeralKey::generate(other);
    const std::string nonce = repeated(32, 'n'), secret = "secret";
    EccSecretToSeal in{&p, client.get(), {}, server.publicKey(), nonce, secret, DateTime::now()};
    std::vector<uint8_t> sealed;
    QCOMPARE(sealEccSecret(in, sealed), StatusCode(status::Good));
    std::string n, s;
    // Sent to another EphemeralKey of the server (a stale or a newer one).
    QCOMPARE(openEccSecret(later, client.get(), sealed.data(), sealed.size(), n, s), StatusCode(status::BadSecurityChecksFailed));
    // Signed by another key than the one the receiver expects.
    QCOMPARE(openEccSecret(server, stranger.get(), sealed.data(), sealed.size(), n, s), StatusCode(status::BadSecurityChecksFailed));
    // Opened under the other curve's policy.
    QCOMPARE(openEccSecret(otherCurve, client.get(), sealed.data(), sealed.size(), n, s), StatusCode(status::BadSecurityChecksFailed));
    // A null receiver key or signer.
    QCOMPARE(openEccSecret(EphemeralKey(), client.get(), sealed.data(), sealed.size(), n, s), StatusCode(status::BadSecurityChecksFailed));
    QCOMPARE(openEccSecret(server, nullptr, sealed.data(), sealed.size(), n, s), StatusCode(status::BadSecurityChecksFailed));
}

void TestEccSecret::sealRefusesWhatItCannotSign() {
    const SecurityPolicy& p256 = securityPolicy(SecurityPolicyId::EccNistP256);
    const PrivateKey p256Key = PrivateKey::generateEc(KeyType::EccNistP256);
    const PrivateKey p384Key = PrivateKey::generateEc(KeyType::EccNistP384);
    const PrivateKey rsa = PrivateKey::generateRsa(2048);
    const EphemeralKey server = EphemeralKey::generate(p256);
    const std::string nonce = repeated(32, 'n');
    std::vector<uint8_t> out;
    // A signing key of the other curve, an RSA key, no key.
    for (EVP_PKEY* key : {p384Key.get(), rsa.get(), static_cast<EVP_PKEY*>(nullptr)}) {
        EccSecretToSeal in{&p256, key, {}, server.publicKey(), nonce, "pw", DateTime::now()};
        QCOMPARE(sealEccSecret(in, out), StatusCode(status::BadSecurityChecksFailed));
    }
    // An RSA policy.
    EccSecretToSeal rsaPolicy{&securityPolicy(SecurityPolicyId::Basic256Sha256), rsa.get(), {}, server.publicKey(), nonce, "pw", DateTime::now()};
    QCOMPARE(sealEccSecret(rsaPolicy, out), StatusCode(status::BadSecurityChecksFailed));
    // A receiver key off the curve, or of the wrong length.
    std::vector<uint8_t> offCurve = server.publicKey();
    offCurve.back() ^= 0x01;
    EccSecretToSeal bad{&p256, p256Key.get(), {}, offCurve, nonce, "pw", DateTime::now()};
    QCOMPARE(sealEccSecret(bad, out), StatusCode(status::BadSecurityChecksFailed));
    bad.receiverPublicKey.pop_back();
    QCOMPARE(sealEccSecret(bad, out), StatusCode(status::BadSecurityChecksFailed));
    // A secret over 65,535 bytes.
    const std::string huge(70000, 'h');
    EccSecretToSeal big{&p256, p256Key.get(), {}, server.publicKey(), nonce, huge, DateTime::now()};
    QCOMPARE(sealEccSecret(big, out), StatusCode(status::BadEncodingLimitsExceeded));
}

void TestEccSecret::ephemeralKeyHeaders() {
    QFETCH(int, policy);
    const SecurityPolicy& p = policyOf(policy);
    const PrivateKey serverCert = PrivateKey::generateEc(keyTypeOf(p));
    const PrivateKey stranger = PrivateKey::generateEc(keyTypeOf(p));
    // The request names the policy; a header without it names none.
    const ExtensionObject request = ecdhKeyRequest(p.uri);
    QCOMPARE(requestedEcdhPolicy(request).view(), p.uri);
    QVERIFY(requestedEcdhPolicy(ExtensionObject()).isNull());
    QVERIFY(requestedEcdhPolicy(ExtensionObject::make(AdditionalParametersType{})).isNull());

    const EphemeralKey key = EphemeralKey::generate(p);
    EphemeralKeyType signedKey;
    QCOMPARE(signEphemeralKey(p, serverCert.get(), key, signedKey), StatusCode(status::Good));
    QVERIFY(verifyEphemeralKey(p, serverCert.get(), signedKey));
    QVERIFY(!verifyEphemeralKey(p, stranger.get(), signedKey));
    EphemeralKeyType tampered = signedKey;
    std::string bytes = tampered.publicKey.str();
    bytes[3] ^= 0x01;
    tampered.publicKey = ByteString(bytes);
    QVERIFY(!verifyEphemeralKey(p, serverCert.get(), tampered));

    EphemeralKeyType got;
    QCOMPARE(ecdhKeyOf(ecdhKeyResponse(p.uri, signedKey), p.uri, got), StatusCode(status::Good));
    QCOMPARE(got, signedKey);
    // A refusal carries its status; a key for another policy, or no header, is not taken.
    QCOMPARE(ecdhKeyOf(ecdhKeyRefusal(p.uri, status::BadSecurityPolicyRejected), p.uri, got),
             StatusCode(status::BadSecurityPolicyRejected));
    QCOMPARE(ecdhKeyOf(ecdhKeyResponse(kSecurityPolicyBasic256Sha256, signedKey), p.uri, got),
             StatusCode(status::BadSecurityPolicyRejected));
    QCOMPARE(ecdhKeyOf(ExtensionObject(), p.uri, got), StatusCode(status::BadSecurityChecksFailed));
    QCOMPARE(ecdhKeyOf(request, p.uri, got), StatusCode(status::BadSecurityChecksFailed));
}

UA_TEST_GUILESS_MAIN(TestEccSecret)
#include "tst_ecc_secret.moc"
