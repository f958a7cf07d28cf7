// Micro-benchmarks of the symmetric chunk security (Google Benchmark): HMAC-SHA256 then AES-256-CBC of
// one 8 KB chunk (Basic256Sha256), with SymmetricKeys' contexts made once per token against contexts
// made per message, and the two ways to restart a keyed HMAC (EVP_MAC_init without a key, or a dup of
// a keyed context).
#include "ua/secure/SecurityPolicy.h"
#include "ua/secure/SymmetricCrypto.h"

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

} // namespace

BENCHMARK_MAIN();
