// Helpers for building X.509 objects with OpenSSL 3, shared by the certificate and the signing
// request code of this folder (CertificateCreator.cpp, SigningRequest.cpp). Internal to pki/.
#pragma once

#include <openssl/bn.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>
#include <string>

namespace ua::x509build {

template <typename T, void (*F)(T*)> struct Deleter {
    void operator()(T* p) const { F(p); }
};
using X509Ptr = std::unique_ptr<X509, Deleter<X509, X509_free>>;
using X509ReqPtr = std::unique_ptr<X509_REQ, Deleter<X509_REQ, X509_REQ_free>>;
using BnPtr = std::unique_ptr<BIGNUM, Deleter<BIGNUM, BN_free>>;
using NamesPtr = std::unique_ptr<GENERAL_NAMES, Deleter<GENERAL_NAMES, GENERAL_NAMES_free>>;
using NamePtr = std::unique_ptr<X509_NAME, Deleter<X509_NAME, X509_NAME_free>>;

// A name as one line of text: "CN=Server, O=Org, DC=host" (RFC 2253 escapes, UTF-8).
std::string nameText(const X509_NAME* name);

// Sets *error to what (and OpenSSL's first queued error), clears OpenSSL's error queue; false.
bool fail(std::string* error, const std::string& what);

// 16 random bytes, positive, with no leading zero byte (the DER INTEGER keeps all 16).
bool setRandomSerial(X509* x);

// Adds field=value (UTF-8) to name; an empty value adds nothing.
bool addNameEntry(X509_NAME* name, const char* field, const std::string& value);

// An extension from OpenSSL's configuration text ("critical,CA:FALSE").
bool addExtension(X509* x, X509V3_CTX* ctx, int nid, const char* value);

// Validity from a day ago (a peer whose clock is behind still accepts it) for days.
bool setValidity(X509* x, int days);

// The extensions every application instance certificate of ours carries besides subjectAltName
// (OPC 10000-6 6.2.2): basicConstraints CA:FALSE, keyUsage digitalSignature, nonRepudiation,
// keyEncipherment, dataEncipherment (only digitalSignature, nonRepudiation for an ECC key in x;
// + keyCertSign when self-signed), extendedKeyUsage serverAuth +
// clientAuth, subjectKeyIdentifier and authorityKeyIdentifier (ctx names the issuer).
bool addApplicationExtensions(X509* x, X509V3_CTX* ctx, bool selfSigned);

} // namespace ua::x509build
