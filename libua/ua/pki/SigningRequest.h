// PKCS#10 certificate signing requests (RFC 2986): the server's side of OPC 10000-12 7.10.10
// CreateSigningRequest, and the certificate authority's side that signs one (the client's Manage
// server certificates dialog, where the user holds the CA's certificate and key). OpenSSL 3.
#pragma once

#include "ua/pki/Certificate.h"
#include "ua/pki/PrivateKey.h"

#include <string>

namespace ua {

// Parses a subject name as OPC 10000-12 7.6.4 writes it: "CN=Server/O=Org/DC=host" (OpenSSL's
// "/CN=Server/O=Org" too), or RFC 4514's "CN=Server, O=Org" when no '/' separates the fields; a value
// holding the separator or '=' is in double quotes. Each field must be a name OpenSSL knows (CN, O,
// OU, DC, L, ST or 7.6.4's S, C, ...) with a non-empty value, and CN must be present.
// Returns the DER of the X509_NAME, empty when the text is not such a name.
std::string subjectNameDer(const std::string& text);

// A DER PKCS#10 request for key's public key, signed with key (SHA-256). Its subject is subjectName
// (subjectNameDer's syntax) or, when empty, the subject of current; its extensionRequest holds the
// subjectAltName of current (the application URI and host names stay those of the application).
// Empty with *error set when subjectName does not parse (the error starts with "subject name") or
// OpenSSL fails.
std::string createSigningRequest(const PrivateKey& key, const Certificate& current, const std::string& subjectName,
                                 std::string* error = nullptr);

// What a request asks for, once its self-signature verified (valid false otherwise).
struct SigningRequestInfo {
    bool valid = false;
    std::string subjectName;     // one-line text, as Certificate::subjectName()
    std::string applicationUri;  // the subjectAltName URI, empty when none
    int keyBits = 0;
};
SigningRequestInfo parseSigningRequest(const std::string& der);

// Issues the certificate that the request (DER) asks for, signed by issuer with issuerKey (SHA-256):
// its subject, public key and subjectAltName, the extensions of an application instance certificate
// (OPC 10000-6 6.2.2: CA:FALSE, keyUsage digitalSignature, nonRepudiation, keyEncipherment,
// dataEncipherment, extendedKeyUsage serverAuth + clientAuth, key identifiers), a random serial,
// valid from a day ago for validityDays. Null with *error set when the request does not parse or its
// signature fails, when issuerKey is not issuer's key, or when issuer is not a CA.
Certificate signRequest(const std::string& requestDer, const Certificate& issuer, const PrivateKey& issuerKey,
                        int validityDays, std::string* error = nullptr);

} // namespace ua
