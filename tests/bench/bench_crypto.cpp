// Micro-benchmarks of the symmetric chunk security (Google Benchmark): HMAC-SHA256 then AES-256-CBC of
// one 8 KB chunk (Basic256Sha256), with SymmetricKeys' contexts made once per token against contexts
// made per message, and the two ways to restart a keyed HMAC (EVP_MAC_init without a key, or a dup of
// a keyed context). And the OpenSecureChannel Issue of each policy family, both ends in memory: RSA
// (Basic256Sha256, Aes256_Sha256_RsaPss, 2048-bit keys) against ECC (ECC_nistP256, ECC_nistP384: a
// new EphemeralKey on each side, ECDH, HKDF, ECDSA), what a connect storm costs per SecureChannel.
#include "ua/client/session/SessionSecurity.h"
#include "ua/encoding/generated/StatusCodes.h"
#include "ua/pki/CertificateStore.h"
#include "ua/secure/AsymmetricCrypto.h"
#include "ua/secure/ClientSecureChannel.h"
#include "ua/secure/EccEncryptedSecret.h"
#include "ua/secure/EccSessionKeys.h"
#include "ua/secure/SecurityPolicy.h"
#include "ua/secure/ServerSecureChannel.h"
#include "ua/secure/SymmetricCrypto.h"

#include <QTemporaryDir>
#include <map>

#include <benchmark/benchmark.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <cstdint>
#include <vector>

namespace {

constexpr std::size_t kChunk = 8192;

std::unique_ptr<ua::crypto::SymmetricKeys> keys() {
    std::vector<uint8_t> a(32, 0x11), b(32, 0x22);
    return ua::crypto::SymmetricKeys::derive(ua::securityPolicy(ua::SecurityPolicyId::Basic256Sha256),
                                             a.data(), a.size(), b.data(), b.size());
}

OSSL_PARAM* sha256Params() {
    static OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, const_cast<char*>("SHA256"), 0),
        OSSL_PARAM_construct_end(),
    };
    return params;
}

void BM_ReusedContexts(benchmark::State& state) {
    auto k = keys();
    std::vector<uint8_t> chunk(kChunk + 32, 0x5A);
    for (auto _ : state) {
        k->sign(chunk.data(), kChunk, chunk.data() + kChunk);
        k->encrypt(chunk.data(), chunk.size());
        benchmark::DoNotOptimize(chunk.data());
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(chunk.size()));
}
BENCHMARK(BM_ReusedContexts);

void BM_ContextsPerMessage(benchmark::State& state) {
    auto k = keys();
    EVP_MAC* mac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
    EVP_CIPHER* aes = EVP_CIPHER_fetch(nullptr, "AES-256-CBC", nullptr);
    std::vector<uint8_t> chunk(kChunk + 32, 0x5A);
    for (auto _ : state) {
        EVP_MAC_CTX* m = EVP_MAC_CTX_new(mac);
        std::size_t n = 0;
        EVP_MAC_init(m, k->signingKey().data(), k->signingKey().size(), sha256Params());
        EVP_MAC_update(m, chunk.data(), kChunk);
        EVP_MAC_final(m, chunk.data() + kChunk, &n, 32);
        EVP_MAC_CTX_free(m);
        EVP_CIPHER_CTX* c = EVP_CIPHER_CTX_new();
        int outl = 0;
        EVP_EncryptInit_ex2(c, aes, k->encryptingKey().data(), k->initializationVector().data(), nullptr);
        EVP_CIPHER_CTX_set_padding(c, 0);
        EVP_EncryptUpdate(c, chunk.data(), &outl, chunk.data(), int(chunk.size()));
        EVP_CIPHER_CTX_free(c);
        benchmark::DoNotOptimize(chunk.data());
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(chunk.size()));
    EVP_CIPHER_free(aes);
    EVP_MAC_free(mac);
}
BENCHMARK(BM_ContextsPerMessage);

// The restart of a keyed HMAC alone, on a short message (a small chunk: the restart's share is largest).
void BM_HmacRestartByInit(benchmark::State& state) {
    EVP_MAC* mac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
    EVP_MAC_CTX* m = EVP_MAC_CTX_new(mac);
    const std::vector<uint8_t> key(32, 0x33), data(64, 0x44);
    uint8_t out[32];
    std::size_t n = 0;
    EVP_MAC_init(m, key.data(), key.size(), sha256Params());
    for (auto _ : state) {
        EVP_MAC_init(m, nullptr, 0, nullptr);
        EVP_MAC_update(m, data.data(), data.size());
        EVP_MAC_final(m, out, &n, sizeof out);
        benchmark::DoNotOptimize(out);
    }
    EVP_MAC_CTX_free(m);
    EVP_MAC_free(mac);
}
BENCHMARK(BM_HmacRestartByInit);

void BM_HmacRestartByDup(benchmark::State& state) {
    EVP_MAC* mac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
    EVP_MAC_CTX* keyed = EVP_MAC_CTX_new(mac);
    const std::vector<uint8_t> key(32, 0x33), data(64, 0x44);
    uint8_t out[32];
    std::size_t n = 0;
    EVP_MAC_init(keyed, key.data(), key.size(), sha256Params());
    for (auto _ : state) {
        EVP_MAC_CTX* m = EVP_MAC_CTX_dup(keyed);
        EVP_MAC_update(m, data.data(), data.size());
        EVP_MAC_final(m, out, &n, sizeof out);
        EVP_MAC_CTX_free(m);
        benchmark::DoNotOptimize(out);
    }
    EVP_MAC_CTX_free(keyed);
    EVP_MAC_free(mac);
}
BENCHMARK(BM_HmacRestartByDup);

struct OpnPair {
    ua::Certificate serverCertificate, clientCertificate;
    ua::PrivateKey serverKey, clientKey;
};

// Certificates made once per key type (RSA 2048 or an ECC curve).
const OpnPair& opnPair(ua::KeyType type) {
    static QTemporaryDir dir;
    static std::map<ua::KeyType, OpnPair> made;
    auto it = made.find(type);
    if (it != made.end()) return it->second;
    OpnPair pair;
    for (const char* role : {"server", "client"}) {
        ua::CertificateStore store(dir.filePath(QString::fromLatin1(role)).toStdString());
        ua::CertificateRequest r;
        r.applicationUri = std::string("urn:bench:") + role;
        r.hostNames = {"localhost"};
        r.keyType = type;
        store.ensureOwnCertificate(r);
        (role[0] == 's' ? pair.serverCertificate : pair.clientCertificate) = store.ownCertificate(type);
        (role[0] == 's' ? pair.serverKey : pair.clientKey) = store.ownPrivateKey(type);
    }
    return made[type] = pair;
}

void BM_OpenSecureChannel(benchmark::State& state) {
    using namespace ua;
    const auto id = SecurityPolicyId(state.range(0));
    const SecurityPolicy& policy = securityPolicy(id);
    const KeyType type = crypto::certificateKeyType(policy);
    const OpnPair& ids = opnPair(type);
    auto sec = std::make_shared<ServerChannelSecurity>();
    sec->offers = {{id, MessageSecurityMode::SignAndEncrypt}};
    const ServerChannelSecurity::EccIdentity identity{ids.serverCertificate, ids.serverCertificate.der(), ids.serverKey};
    if (type == KeyType::EccNistP256) sec->eccNistP256 = identity;
    else if (type == KeyType::EccNistP384) sec->eccNistP384 = identity;
    else {
        sec->certificate = identity.certificate;
        sec->certificateChain = identity.certificateChain;
        sec->privateKey = identity.privateKey;
    }
    sec->validateCertificate = [](const std::string&, const SecurityPolicy&) { return StatusCode(status::Good); };
    TransportLimits limits;
    limits.receiveBufferSize = limits.sendBufferSize = 65536;
    ClientChannelSecurity clientSecurity;
    clientSecurity.policy = id;
    clientSecurity.mode = MessageSecurityMode::SignAndEncrypt;
    clientSecurity.clientCertificateChain = ids.clientCertificate.der();
    clientSecurity.clientKey = ids.clientKey;
    clientSecurity.serverCertificate = ids.serverCertificate;
    std::vector<uint8_t> toServer, toClient;
    std::size_t opnBytes = 0;
    for (auto _ : state) {
        ClientSecureChannel client(limits, [&](const uint8_t* d, std::size_t n) { toServer.assign(d, d + n); }, clientSecurity);
        client.sendHello("opc.tcp://localhost:4840");
        const HelloMessage hello = *decodeHello(toServer.data() + 8, toServer.size() - 8);
        const AcknowledgeMessage ack = negotiateAcknowledge(hello, limits);
        SecureChannelConfig cfg;
        cfg.security = sec;
        ServerSecureChannel server(7, hello, ack, cfg, [&](const uint8_t* d, std::size_t n) { toClient.assign(d, d + n); });
        Buffer b;
        encodeAcknowledge(b, ack);
        client.onMessage(b.data(), b.size(), 0);
        RequestHeader header;
        client.sendOpen(1, SecurityTokenRequestType::Issue, 60000, header);
        opnBytes = toServer.size();
        const auto e = server.onChunk(toServer.data(), toServer.size(), 0);
        const auto c = client.onMessage(toClient.data(), toClient.size(), 0);
        if (e.kind != ServerSecureChannel::Event::Kind::None || c.kind != ClientSecureChannel::Event::Kind::Opened ||
            !client.isOpen()) {
            state.SkipWithError("the OpenSecureChannel failed");
            break;
        }
    }
    const std::string_view uri = policy.uri;
    state.SetLabel(std::string(uri.substr(uri.find('#') + 1)));
    state.counters["opn_request_bytes"] = double(opnBytes);
}
BENCHMARK(BM_OpenSecureChannel)
    ->Arg(int(ua::SecurityPolicyId::Basic256Sha256))
    ->Arg(int(ua::SecurityPolicyId::Aes256Sha256RsaPss))
    ->Arg(int(ua::SecurityPolicyId::EccNistP256))
    ->Arg(int(ua::SecurityPolicyId::EccNistP384))
    ->Unit(benchmark::kMicrosecond);

// A password protected for ActivateSession, both sides' CPU (OPC 10000-4 7.40.2): RSA, the legacy
// secret encrypted with the server certificate's key and decrypted with its private key; ECC, the
// server's EphemeralKey made and signed (its CreateSession / ActivateSession additionalHeader), the
// client's check of that signature and its EccEncryptedSecret (its own EphemeralKey, ECDH, HKDF,
// AES, ECDSA), the server's verification and opening.
void BM_UserTokenSecret(benchmark::State& state) {
    using namespace ua;
    const SecurityPolicy& policy = securityPolicy(SecurityPolicyId(state.range(0)));
    const OpnPair& ids = opnPair(crypto::certificateKeyType(policy));
    const ByteString nonce(std::string(32, 'n'));
    const std::string password = "correct horse battery staple";
    std::size_t tokenBytes = 0;
    for (auto _ : state) {
        std::string opened;
        if (policy.isEcc()) {
            const crypto::EphemeralKey key = crypto::EphemeralKey::generate(policy);
            EphemeralKeyType signedKey;
            if (signEphemeralKey(policy, ids.serverKey.get(), key, signedKey).isBad() ||
                !verifyEphemeralKey(policy, ids.serverCertificate.publicKey(), signedKey)) {
                state.SkipWithError("EphemeralKey");
                return;
            }
            crypto::EccSecretToSeal in{&policy, ids.clientKey.get(), {}, key.publicKey(), nonce.view(), password, DateTime::now()};
            std::vector<uint8_t> sealed;
            std::string openedNonce;
            if (crypto::sealEccSecret(in, sealed).isBad() ||
                crypto::openEccSecret(key, ids.clientCertificate.publicKey(), sealed.data(), sealed.size(), openedNonce, opened).isBad()) {
                state.SkipWithError("EccEncryptedSecret");
                return;
            }
            tokenBytes = sealed.size();
        } else {
            std::vector<uint8_t> secret = legacyTokenSecret(password, nonce), encrypted, plain;
            if (crypto::asymmetricEncrypt(policy, ids.serverCertificate.publicKey(), secret.data(), secret.size(), encrypted).isBad() ||
                crypto::asymmetricDecrypt(policy, ids.serverKey.get(), encrypted.data(), encrypted.size(), plain).isBad()) {
                state.SkipWithError("RSA secret");
                return;
            }
            opened.assign(plain.begin() + 4, plain.end() - std::ptrdiff_t(nonce.size()));
            tokenBytes = encrypted.size();
        }
        if (opened != password) {
            state.SkipWithError("the password did not come back");
            return;
        }
        benchmark::DoNotOptimize(opened);
    }
    const std::string_view uri = policy.uri;
    state.SetLabel(std::string(uri.substr(uri.find('#') + 1)));
    state.counters["token_bytes"] = double(tokenBytes);
}
BENCHMARK(BM_UserTokenSecret)
    ->Arg(int(ua::SecurityPolicyId::Basic256Sha256))
    ->Arg(int(ua::SecurityPolicyId::EccNistP256))
    ->Arg(int(ua::SecurityPolicyId::EccNistP384))
    ->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
