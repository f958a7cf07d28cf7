// The cryptography of the ECC policies (OPC 10000-6 6.8, ECC_nistP256 and ECC_nistP384 of OPC 10000-7):
// the policy table, EphemeralKeys and ECDH with refusals of points that are not on the curve, HKDF
// against RFC 5869's known answer and against an extract-and-expand written here with OpenSSL's HMAC,
// the 6.8.1 salts and the keys of both directions, a MessageChunk sealed and opened with them, ECDSA
// signatures as r | s (checked with OpenSSL's DER verification too), keys of the wrong kind refused,
// and ECC application instance certificates made by the PKI and accepted by its validator.
#include "ua/encoding/Buffer.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/pki/CertificateCreator.h"
#include "ua/pki/CertificateStore.h"
#include "ua/secure/AsymmetricCrypto.h"
#include "ua/secure/ChunkSecurity.h"
#include "ua/secure/EccCrypto.h"
#include "ua/secure/SecurityPolicy.h"

#include <QTemporaryDir>
#include <QtTest>
#include "TestMain.h"

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

using namespace ua;
using namespace ua::crypto;

namespace {

std::vector<uint8_t> eccHex(const char* h) {
    const QByteArray b = QByteArray::fromHex(h);
    return {b.begin(), b.end()};
}

const SecurityPolicy& eccPolicy(int id) { return securityPolicy(SecurityPolicyId(id)); }

void addEccRows() {
    QTest::addColumn<int>("policy");
    QTest::addRow("ECC_nistP256") << int(SecurityPolicyId::EccNistP256);
    QTest::addRow("ECC_nistP384") << int(SecurityPolicyId::EccNistP384);
}

KeyType keyTypeOfPolicy(const SecurityPolicy& p) {
    return p.curve == EccCurve::NistP256 ? KeyType::EccNistP256 : KeyType::EccNistP384;
}

// RFC 5869 extract and expand written out with OpenSSL's one-shot HMAC: the reference the product's
// EVP_KDF HKDF is compared with.
std::vector<uint8_t> referenceHkdf(const char* digest, const std::vector<uint8_t>& ikm, const std::vector<uint8_t>& salt,
                                   const std::vector<uint8_t>& info, std::size_t length) {
    uint8_t prk[EVP_MAX_MD_SIZE];
    std::size_t prkLength = 0;
    if (!EVP_Q_mac(nullptr, "HMAC", nullptr, digest, nullptr, salt.data(), salt.size(), ikm.data(), ikm.size(), prk,
                   sizeof prk, &prkLength))
        return {};
    std::vector<uint8_t> okm, previous;
    for (uint8_t counter = 1; okm.size() < length; ++counter) {
        std::vector<uint8_t> block = previous;
        block.insert(block.end(), info.begin(), info.end());
        block.push_back(counter);
        uint8_t t[EVP_MAX_MD_SIZE];
        std::size_t tLength = 0;
        if (!EVP_Q_mac(nullptr, "HMAC", nullptr, digest, nullptr, prk, prkLength, block.data(), block.size(), t, sizeof t,
                       &tLength))
            return {};
        previous.assign(t, t + tLength);
        okm.insert(okm.end(), previous.begin(), previous.end());
    }
    okm.resize(length);
    return okm;
}

std::shared_ptr<EVP_PKEY> publicHalf(EVP_PKEY* key) {
    unsigned char* der = nullptr;
    const int n = i2d_PUBKEY(key, &der);
    const unsigned char* p = der;
    std::shared_ptr<EVP_PKEY> pub(n > 0 ? d2i_PUBKEY(nullptr, &p, n) : nullptr, EVP_PKEY_free);
    OPENSSL_free(der);
    return pub;
}

// r | s as DER, built here with OpenSSL's ECDSA_SIG (not with the product's conversion).
std::vector<uint8_t> rawToDer(const std::vector<uint8_t>& raw) {
    const int half = int(raw.size() / 2);
    ECDSA_SIG* sig = ECDSA_SIG_new();
    ECDSA_SIG_set0(sig, BN_bin2bn(raw.data(), half, nullptr), BN_bin2bn(raw.data() + half, half, nullptr));
    unsigned char* der = nullptr;
    const int n = i2d_ECDSA_SIG(sig, &der);
    std::vector<uint8_t> out(der, der + (n > 0 ? n : 0));
    OPENSSL_free(der);
    ECDSA_SIG_free(sig);
    return out;
}

bool opensslVerifies(const char* digest, EVP_PKEY* pub, const std::vector<uint8_t>& data, const std::vector<uint8_t>& der) {
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    const bool ok = EVP_DigestVerifyInit_ex(ctx, nullptr, digest, nullptr, nullptr, pub, nullptr) == 1 &&
                    EVP_DigestVerify(ctx, der.data(), der.size(), data.data(), data.size()) == 1;
    EVP_MD_CTX_free(ctx);
    return ok;
}

std::vector<uint8_t> eccPattern(std::size_t n, uint8_t seed) {
    std::vector<uint8_t> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = uint8_t(seed + i * 7);
    return v;
}

} // namespace

class TestEccCrypto : public QObject {
    Q_OBJECT
private slots:
    void policyTable();
    void hkdfKnownAnswer();
    void hkdfMatchesExtractAndExpand_data() { addEccRows(); }
    void hkdfMatchesExtractAndExpand();
    void ephemeralKeysAgree_data() { addEccRows(); }
    void ephemeralKeysAgree();
    void sharedSecretRefusesBadPoints_data() { addEccRows(); }
    void sharedSecretRefusesBadPoints();
    void channelKeysFollowTheSalts_data() { addEccRows(); }
    void channelKeysFollowTheSalts();
    void channelKeysProtectAChunk_data() { addEccRows(); }
    void channelKeysProtectAChunk();
    void ecdsaSignaturesAreRawRAndS_data() { addEccRows(); }
    void ecdsaSignaturesAreRawRAndS();
    void keysOfTheWrongKindAreRefused();
    void eccApplicationCertificates_data() { addEccRows(); }
    void eccApplicationCertificates();
};

void TestEccCrypto::policyTable() {
    const SecurityPolicy* p256 = findSecurityPolicy("http://opcfoundation.org/UA/SecurityPolicy#ECC_nistP256");
    const SecurityPolicy* p384 = findSecurityPolicy("http://opcfoundation.org/UA/SecurityPolicy#ECC_nistP384");
    QVERIFY(p256 && p384);
    QCOMPARE(p256->id, SecurityPolicyId::EccNistP256);
    QCOMPARE(p384->id, SecurityPolicyId::EccNistP384);
    QVERIFY(p256->isEcc() && p384->isEcc());
    QVERIFY(!securityPolicy(SecurityPolicyId::Aes256Sha256RsaPss).isEcc());
    QVERIFY(!securityPolicy(SecurityPolicyId::None).isEcc());
    // Nonces are the EphemeralKeys' X | Y; no asymmetric encryption; SignatureData.algorithm empty.
    QCOMPARE(p256->nonceLength, 64u);
    QCOMPARE(p384->nonceLength, 96u);
    QCOMPARE(p256->asymmetricEncryption, AsymmetricEncryption::None);
    QVERIFY(p256->asymmetricSignatureUri.empty() && p384->asymmetricSignatureUri.empty());
    // L of 6.8.1: signing key + encrypting key + IV.
    QCOMPARE(SymmetricKeys::keyMaterialLength(*p256), std::size_t(32 + 16 + 16));
    QCOMPARE(SymmetricKeys::keyMaterialLength(*p384), std::size_t(48 + 32 + 16));
    QCOMPARE(p384->symmetricSignatureSize, 48u);
    // The RSA key derivation refuses an ECC policy rather than computing a P_SHA384 nobody defined.
    const auto n = eccHex("00112233445566778899aabbccddeeff");
    QVERIFY(deriveBytes(*p256, n.data(), n.size(), n.data(), n.size(), 64).empty());
    QVERIFY(!SymmetricKeys::derive(*p256, n.data(), n.size(), n.data(), n.size()));
}

void TestEccCrypto::hkdfKnownAnswer() {
    // RFC 5869 A.1 (SHA-256): ECC_nistP256's KeyDerivationAlgorithm.
    const auto ikm = eccHex("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b");
    const auto salt = eccHex("000102030405060708090a0b0c");
    const auto info = eccHex("f0f1f2f3f4f5f6f7f8f9");
    const auto okm = hkdf(securityPolicy(SecurityPolicyId::EccNistP256), ikm.data(), ikm.size(), salt.data(), salt.size(),
                          info.data(), info.size(), 42);
    QCOMPARE(okm, eccHex("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"));
    // Not for an RSA policy; not 0 bytes; not more than 255 blocks of the hash.
    QVERIFY(hkdf(securityPolicy(SecurityPolicyId::Basic256Sha256), ikm.data(), ikm.size(), salt.data(), salt.size(),
                 info.data(), info.size(), 42)
                .empty());
    QVERIFY(hkdf(securityPolicy(SecurityPolicyId::EccNistP256), ikm.data(), ikm.size(), salt.data(), salt.size(),
                 info.data(), info.size(), 0)
                .empty());
    QVERIFY(hkdf(securityPolicy(SecurityPolicyId::EccNistP256), ikm.data(), ikm.size(), salt.data(), salt.size(),
                 info.data(), info.size(), 255 * 32 + 1)
                .empty());
}

void TestEccCrypto::hkdfMatchesExtractAndExpand() {
    QFETCH(int, policy);
    const SecurityPolicy& p = eccPolicy(policy);
    const char* digest = p.curve == EccCurve::NistP256 ? "SHA256" : "SHA384";
    const auto ikm = eccPattern(48, 3), salt = eccPattern(110, 9), info = eccPattern(77, 200);
    for (std::size_t length : {std::size_t(1), std::size_t(64), std::size_t(96), std::size_t(1000)}) {
        const auto ours = hkdf(p, ikm.data(), ikm.size(), salt.data(), salt.size(), info.data(), info.size(), length);
        QCOMPARE(ours.size(), length);
        QCOMPARE(ours, referenceHkdf(digest, ikm, salt, info, length));
    }
}

void TestEccCrypto::ephemeralKeysAgree() {
    QFETCH(int, policy);
    const SecurityPolicy& p = eccPolicy(policy);
    const EphemeralKey a = EphemeralKey::generate(p), b = EphemeralKey::generate(p), c = EphemeralKey::generate(p);
    QVERIFY(!a.isNull() && !b.isNull() && !c.isNull());
    QCOMPARE(a.policy(), &p);
    QCOMPARE(a.publicKey().size(), std::size_t(p.nonceLength));
    QVERIFY(a.publicKey() != b.publicKey());
    std::vector<uint8_t> ab = {0x5A}, ba, ac;  // appended to
    QCOMPARE(a.sharedSecret(b.publicKey().data(), b.publicKey().size(), ab), StatusCode(status::Good));
    QCOMPARE(b.sharedSecret(a.publicKey().data(), a.publicKey().size(), ba), StatusCode(status::Good));
    QCOMPARE(a.sharedSecret(c.publicKey().data(), c.publicKey().size(), ac), StatusCode(status::Good));
    QCOMPARE(ab.front(), uint8_t(0x5A));
    ab.erase(ab.begin());
    QCOMPARE(ab.size(), std::size_t(p.nonceLength / 2));  // the x coordinate
    QCOMPARE(ab, ba);
    QVERIFY(ab != ac);
    // Not for an RSA policy.
    QVERIFY(EphemeralKey::generate(securityPolicy(SecurityPolicyId::Basic256Sha256)).isNull());
}

void TestEccCrypto::sharedSecretRefusesBadPoints() {
    QFETCH(int, policy);
    const SecurityPolicy& p = eccPolicy(policy);
    const EphemeralKey a = EphemeralKey::generate(p), b = EphemeralKey::generate(p);
    const std::vector<uint8_t> good = b.publicKey();
    const SecurityPolicy& other = eccPolicy(p.curve == EccCurve::NistP256 ? int(SecurityPolicyId::EccNistP384)
                                                                         : int(SecurityPolicyId::EccNistP256));
    std::vector<uint8_t> offCurve = good;
    offCurve.back() ^= 0x01;  // Y no longer fits X
    std::vector<uint8_t> withPrefix = {0x04};
    withPrefix.insert(withPrefix.end(), good.begin(), good.end());
    std::vector<uint8_t> fieldTooLarge(good.size(), 0xFF);  // coordinates above the field's prime
    const std::vector<std::pair<const char*, std::vector<uint8_t>>> bad = {
        {"empty", {}},
        {"one byte short", std::vector<uint8_t>(good.begin(), good.end() - 1)},
        {"SEC 1 prefix 04 kept", withPrefix},
        {"all zero (no point)", std::vector<uint8_t>(good.size(), 0)},
        {"not on the curve", offCurve},
        {"coordinates over the prime", fieldTooLarge},
        {"the other curve's key", EphemeralKey::generate(other).publicKey()},
    };
    for (const auto& [what, key] : bad) {
        std::vector<uint8_t> secret = {1, 2, 3};
        QCOMPARE(a.sharedSecret(key.data(), key.size(), secret), StatusCode(status::BadSecurityChecksFailed));
        if (secret != std::vector<uint8_t>{1, 2, 3}) QFAIL(what);  // nothing appended
    }
    std::vector<uint8_t> secret;
    QCOMPARE(a.sharedSecret(nullptr, good.size(), secret), StatusCode(status::BadSecurityChecksFailed));
    QCOMPARE(EphemeralKey().sharedSecret(good.data(), good.size(), secret), StatusCode(status::BadSecurityChecksFailed));
    QCOMPARE(a.sharedSecret(good.data(), good.size(), secret), StatusCode(status::Good));
}

void TestEccCrypto::channelKeysFollowTheSalts() {
    QFETCH(int, policy);
    const SecurityPolicy& p = eccPolicy(policy);
    const char* digest = p.curve == EccCurve::NistP256 ? "SHA256" : "SHA384";
    const EphemeralKey client = EphemeralKey::generate(p), server = EphemeralKey::generate(p);
    const std::vector<uint8_t>& clientNonce = client.publicKey();
    const std::vector<uint8_t>& serverNonce = server.publicKey();
    std::vector<uint8_t> clientSecret, serverSecret;
    QCOMPARE(client.sharedSecret(serverNonce.data(), serverNonce.size(), clientSecret), StatusCode(status::Good));
    QCOMPARE(server.sharedSecret(clientNonce.data(), clientNonce.size(), serverSecret), StatusCode(status::Good));

    // Each side derives both directions; they agree.
    const auto clientSends = deriveEccChannelKeys(p, clientSecret, EccKeySide::Client, clientNonce, serverNonce);
    const auto serverReceives = deriveEccChannelKeys(p, serverSecret, EccKeySide::Client, clientNonce, serverNonce);
    const auto serverSends = deriveEccChannelKeys(p, serverSecret, EccKeySide::Server, clientNonce, serverNonce);
    const auto clientReceives = deriveEccChannelKeys(p, clientSecret, EccKeySide::Server, clientNonce, serverNonce);
    QVERIFY(clientSends && serverReceives && serverSends && clientReceives);
    QCOMPARE(clientSends->signingKey(), serverReceives->signingKey());
    QCOMPARE(clientSends->encryptingKey(), serverReceives->encryptingKey());
    QCOMPARE(clientSends->initializationVector(), serverReceives->initializationVector());
    QCOMPARE(serverSends->signingKey(), clientReceives->signingKey());
    QVERIFY(clientSends->signingKey() != serverSends->signingKey());
    QVERIFY(clientSends->encryptingKey() != serverSends->encryptingKey());

    // The salts of 6.8.1, written out here: L (UInt16 little endian) | label | nonces; Info = Salt.
    const std::size_t length = SymmetricKeys::keyMaterialLength(p);
    auto saltOf = [&](const char* label, const std::vector<uint8_t>& first, const std::vector<uint8_t>& second) {
        QByteArray s;  // (std::vector::insert here trips GCC 12's -Warray-bounds)
        s.append(char(length & 0xFF)).append(char(length >> 8)).append(label);
        s.append(reinterpret_cast<const char*>(first.data()), qsizetype(first.size()));
        s.append(reinterpret_cast<const char*>(second.data()), qsizetype(second.size()));
        return std::vector<uint8_t>(s.begin(), s.end());
    };
    const auto clientSalt = saltOf("opcua-client", clientNonce, serverNonce);
    const auto serverSalt = saltOf("opcua-server", serverNonce, clientNonce);
    QCOMPARE(eccSalt(uint16_t(length), "opcua-client", clientNonce, serverNonce), clientSalt);
    auto cut = [&](const std::vector<uint8_t>& material, const SymmetricKeys& keys) {
        const std::size_t s = p.derivedSignatureKeyLength, e = p.symmetricEncryptionKeyLength;
        QCOMPARE(keys.signingKey(), std::vector<uint8_t>(material.begin(), material.begin() + s));
        QCOMPARE(keys.encryptingKey(), std::vector<uint8_t>(material.begin() + s, material.begin() + s + e));
        QCOMPARE(keys.initializationVector(), std::vector<uint8_t>(material.begin() + s + e, material.end()));
    };
    cut(referenceHkdf(digest, clientSecret, clientSalt, clientSalt, length), *clientSends);
    if (QTest::currentTestFailed()) return;
    cut(referenceHkdf(digest, serverSecret, serverSalt, serverSalt, length), *serverSends);

    // Nothing from empty inputs or for an RSA policy.
    QVERIFY(!deriveEccChannelKeys(p, {}, EccKeySide::Client, clientNonce, serverNonce));
    QVERIFY(!deriveEccChannelKeys(p, clientSecret, EccKeySide::Client, {}, serverNonce));
    QVERIFY(!deriveEccChannelKeys(securityPolicy(SecurityPolicyId::Basic256Sha256), clientSecret, EccKeySide::Client,
                                  clientNonce, serverNonce));
}

void TestEccCrypto::channelKeysProtectAChunk() {
    QFETCH(int, policy);
    const SecurityPolicy& p = eccPolicy(policy);
    const EphemeralKey client = EphemeralKey::generate(p), server = EphemeralKey::generate(p);
    std::vector<uint8_t> cs, ss;
    QVERIFY(client.sharedSecret(server.publicKey().data(), server.publicKey().size(), cs).isGood());
    QVERIFY(server.sharedSecret(client.publicKey().data(), client.publicKey().size(), ss).isGood());
    auto send = deriveEccChannelKeys(p, cs, EccKeySide::Client, client.publicKey(), server.publicKey());
    auto receive = deriveEccChannelKeys(p, ss, EccKeySide::Client, client.publicKey(), server.publicKey());
    auto wrongDirection = deriveEccChannelKeys(p, ss, EccKeySide::Server, client.publicKey(), server.publicKey());
    QVERIFY(send && receive && wrongDirection);

    for (MessageSecurityMode mode : {MessageSecurityMode::Sign, MessageSecurityMode::SignAndEncrypt}) {
        const std::vector<uint8_t> body = eccPattern(20000, uint8_t(mode));  // several chunks
        Buffer sealed;
        SequenceCounter sequence;
        const SymmetricSecurity sealing{mode, send.get(), 7};
        QCOMPARE(sealSymmetric(sealed, TcpMessageType::Message, ChunkType::Final, 42, sealing, 9, body.data(), body.size(),
                               ChunkLimits{8192, 0, 0}, sequence),
                 StatusCode(status::Good));
        // Open each chunk (its size is at offset 4) with the receiving side's keys.
        std::vector<uint8_t> reassembled;
        std::size_t offset = 0, chunks = 0;
        const SymmetricSecurity opening{mode, receive.get(), 7};
        const SymmetricSecurity wrong{mode, wrongDirection.get(), 7};
        while (offset < sealed.size()) {
            const uint8_t* chunk = sealed.data() + offset;
            const std::size_t n = std::size_t(chunk[4]) | std::size_t(chunk[5]) << 8 | std::size_t(chunk[6]) << 16 |
                std::size_t(chunk[7]) << 24;
            Buffer scratch;
            OpenedChunk opened;
            QCOMPARE(openSymmetric(chunk, n, wrong, scratch, opened), StatusCode(status::BadSecurityChecksFailed));
            QCOMPARE(openSymmetric(chunk, n, opening, scratch, opened), StatusCode(status::Good));
            reassembled.insert(reassembled.end(), opened.body, opened.body + opened.bodySize);
            // A flipped byte in the protected part fails the HMAC (SHA-256 or SHA-384).
            std::vector<uint8_t> tampered(chunk, chunk + n);
            tampered[n / 2] ^= 0x10;
            QCOMPARE(openSymmetric(tampered.data(), n, opening, scratch, opened), StatusCode(status::BadSecurityChecksFailed));
            offset += n;
            ++chunks;
        }
        QVERIFY(chunks >= 3);
        QCOMPARE(reassembled, body);
    }
}

void TestEccCrypto::ecdsaSignaturesAreRawRAndS() {
    QFETCH(int, policy);
    const SecurityPolicy& p = eccPolicy(policy);
    const char* digest = p.curve == EccCurve::NistP256 ? "SHA256" : "SHA384";
    const PrivateKey key = PrivateKey::generateEc(keyTypeOfPolicy(p));
    QVERIFY(!key.isNull());
    QCOMPARE(key.type(), keyTypeOfPolicy(p));
    const auto pub = publicHalf(key.get());
    QVERIFY(pub);
    QCOMPARE(asymmetricSignatureSize(p, key.get()), std::size_t(p.nonceLength));  // r | s = 2 coordinates

    std::vector<uint8_t> data = eccPattern(3000, 11);
    std::vector<uint8_t> sig = {0xAB};  // appended to
    QCOMPARE(asymmetricSign(p, key.get(), data.data(), data.size(), sig), StatusCode(status::Good));
    QCOMPARE(sig.front(), uint8_t(0xAB));
    sig.erase(sig.begin());
    QCOMPARE(sig.size(), std::size_t(p.nonceLength));
    QVERIFY(asymmetricVerify(p, pub.get(), data.data(), data.size(), sig.data(), sig.size()));
    // The same r and s as DER verify with OpenSSL's own ECDSA.
    QVERIFY(opensslVerifies(digest, pub.get(), data, rawToDer(sig)));
    // ECDSA is randomised: a second signature differs and verifies too.
    std::vector<uint8_t> again;
    QVERIFY(asymmetricSign(p, key.get(), data.data(), data.size(), again).isGood());
    QVERIFY(again != sig);
    QVERIFY(asymmetricVerify(p, pub.get(), data.data(), data.size(), again.data(), again.size()));

    data[1500] ^= 0x01;
    QVERIFY(!asymmetricVerify(p, pub.get(), data.data(), data.size(), sig.data(), sig.size()));
    data[1500] ^= 0x01;
    sig[5] ^= 0x40;  // r
    QVERIFY(!asymmetricVerify(p, pub.get(), data.data(), data.size(), sig.data(), sig.size()));
    sig[5] ^= 0x40;
    sig[sig.size() - 3] ^= 0x40;  // s
    QVERIFY(!asymmetricVerify(p, pub.get(), data.data(), data.size(), sig.data(), sig.size()));
    sig[sig.size() - 3] ^= 0x40;
    QVERIFY(!asymmetricVerify(p, pub.get(), data.data(), data.size(), sig.data(), sig.size() - 1));
    // The DER form is not what the wire carries: refused.
    const auto der = rawToDer(sig);
    QVERIFY(!asymmetricVerify(p, pub.get(), data.data(), data.size(), der.data(), der.size()));
    // r = s = 0 is no signature.
    const std::vector<uint8_t> zeros(sig.size(), 0);
    QVERIFY(!asymmetricVerify(p, pub.get(), data.data(), data.size(), zeros.data(), zeros.size()));
    // Another key's signature.
    const PrivateKey other = PrivateKey::generateEc(keyTypeOfPolicy(p));
    std::vector<uint8_t> otherSig;
    QVERIFY(asymmetricSign(p, other.get(), data.data(), data.size(), otherSig).isGood());
    QVERIFY(!asymmetricVerify(p, pub.get(), data.data(), data.size(), otherSig.data(), otherSig.size()));
    QVERIFY(asymmetricVerify(p, pub.get(), data.data(), data.size(), sig.data(), sig.size()));
}

void TestEccCrypto::keysOfTheWrongKindAreRefused() {
    const SecurityPolicy& p256 = securityPolicy(SecurityPolicyId::EccNistP256);
    const SecurityPolicy& p384 = securityPolicy(SecurityPolicyId::EccNistP384);
    const SecurityPolicy& rsa = securityPolicy(SecurityPolicyId::Basic256Sha256);
    const PrivateKey ec256 = PrivateKey::generateEc(KeyType::EccNistP256);
    const PrivateKey ec384 = PrivateKey::generateEc(KeyType::EccNistP384);
    const PrivateKey rsaKey = PrivateKey::generateRsa(2048);
    QVERIFY(PrivateKey::generateEc(KeyType::Rsa).isNull());
    QCOMPARE(rsaKey.type(), KeyType::Rsa);
    QVERIFY(keyFitsPolicy(p256, ec256.get()) && keyFitsPolicy(p384, ec384.get()) && keyFitsPolicy(rsa, rsaKey.get()));
    const std::vector<uint8_t> data = eccPattern(100, 1);
    struct Case {
        const SecurityPolicy* policy;
        EVP_PKEY* key;
    };
    for (const Case& c : {Case{&p256, ec384.get()}, Case{&p384, ec256.get()}, Case{&p256, rsaKey.get()},
                          Case{&rsa, ec256.get()}, Case{&p256, nullptr}}) {
        QVERIFY(!keyFitsPolicy(*c.policy, c.key));
        std::vector<uint8_t> sig;
        QCOMPARE(asymmetricSign(*c.policy, c.key, data.data(), data.size(), sig), StatusCode(status::BadSecurityChecksFailed));
        QVERIFY(sig.empty());
    }
    // A P-384 signature checked as P-256 (the key says P-384): refused whatever its bytes.
    std::vector<uint8_t> sig;
    QVERIFY(asymmetricSign(p384, ec384.get(), data.data(), data.size(), sig).isGood());
    QVERIFY(!asymmetricVerify(p256, ec384.get(), data.data(), data.size(), sig.data(), sig.size()));
    QVERIFY(!asymmetricVerify(rsa, ec384.get(), data.data(), data.size(), sig.data(), sig.size()));
    QVERIFY(asymmetricVerify(p384, ec384.get(), data.data(), data.size(), sig.data(), sig.size()));
}

void TestEccCrypto::eccApplicationCertificates() {
    QFETCH(int, policy);
    const SecurityPolicy& p = eccPolicy(policy);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    CertificateStore store(dir.path().toStdString() + "/pki");
    CertificateRequest request;
    request.applicationUri = "urn:test:ecc";
    request.applicationName = "ECC Test";
    request.hostNames = {"ecchost", "127.0.0.1"};
    request.keyType = keyTypeOfPolicy(p);
    std::string error;
    QVERIFY2(store.ensureOwnCertificate(request, &error), error.c_str());
    const Certificate cert = store.ownCertificate(request.keyType);
    QVERIFY(store.ownCertificate().isNull());  // the RSA pair is another one, not made here
    QCOMPARE(cert.keyType(), keyTypeOfPolicy(p));
    QCOMPARE(store.ownPrivateKey(request.keyType).type(), keyTypeOfPolicy(p));
    QVERIFY(store.ownPrivateKey(request.keyType).matches(cert));
    QCOMPARE(cert.keyBits(), int(p.minAsymmetricKeyBits));
    QCOMPARE(cert.signatureHashBits(), p.curve == EccCurve::NistP256 ? 256 : 384);
    QCOMPARE(cert.applicationUri(), std::string("urn:test:ecc"));
    QVERIFY(cert.isSelfSigned());
    // keyUsage: signs (and, self-signed, signs certificates), encrypts nothing.
    const uint32_t ku = X509_get_key_usage(cert.x509());
    QVERIFY(ku & KU_DIGITAL_SIGNATURE);
    QVERIFY(ku & KU_NON_REPUDIATION);
    QVERIFY(ku & KU_KEY_CERT_SIGN);
    QVERIFY(!(ku & (KU_KEY_ENCIPHERMENT | KU_DATA_ENCIPHERMENT)));

    // The validator takes it for the ECC policy's key size once trusted; the RSA limits refuse it.
    ValidationOptions eccLimits;
    eccLimits.minKeyBits = int(p.minAsymmetricKeyBits);
    eccLimits.maxKeyBits = int(p.maxAsymmetricKeyBits);
    std::string reason;
    QCOMPARE(store.validate(cert.der(), eccLimits, &reason), StatusCode(status::BadCertificateUntrusted));
    QVERIFY(store.addTrusted(cert));
    QCOMPARE(store.validate(cert.der(), eccLimits, &reason), StatusCode(status::Good));
    QCOMPARE(store.validate(cert.der(), ValidationOptions{}, &reason), StatusCode(status::BadCertificatePolicyCheckFailed));

    // A second store reads the pair back from its files.
    CertificateStore again(dir.path().toStdString() + "/pki");
    QVERIFY2(again.ensureOwnCertificate(request, &error), error.c_str());
    QCOMPARE(again.ownCertificate(request.keyType), cert);
    QCOMPARE(again.ownPrivateKey(request.keyType).type(), keyTypeOfPolicy(p));
    // An RSA pair made beside it leaves it in place, and the other way round.
    CertificateRequest rsa = request;
    rsa.keyType = KeyType::Rsa;
    QVERIFY2(again.ensureOwnCertificate(rsa, &error), error.c_str());
    QCOMPARE(again.ownCertificate().keyType(), KeyType::Rsa);
    CertificateStore third(dir.path().toStdString() + "/pki");
    QVERIFY(third.ensureOwnCertificate(request, &error) && third.ensureOwnCertificate(rsa, &error));
    QCOMPARE(third.ownCertificate(request.keyType), cert);
    QCOMPARE(third.ownCertificate(), again.ownCertificate());
}

UA_TEST_GUILESS_MAIN(TestEccCrypto)
#include "tst_ecc_crypto.moc"
