// The application instance certificate in a certificate store's folder (CertificateStore.h's
// layout: <root>/own/certs), read without opening the store: nothing is created or changed. For
// messages that name the certificate a server has to trust (the client's and the load tester's
// "the server has probably not trusted this client's certificate yet").
#pragma once

#include "ua/pki/Certificate.h"

#include <string>

namespace ua {

// The newest (by file time) certificate of a key type (the RSA one unless said) in
// rootDir/own/certs that is not expired; null when there is none (no secure connection made yet) or
// the folder does not exist.
Certificate findOwnCertificate(const std::string& rootDir, KeyType type = KeyType::Rsa);

} // namespace ua
