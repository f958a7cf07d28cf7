// The load tester's own application instance certificate, named when a server refuses it (issue 27
// item 13): a secure step that fails with Bad_SecurityChecksFailed most often means that the server
// has not trusted this certificate yet (the status is deliberately generic, so "probably").
#pragma once

#include "engine/LoadParameters.h"
#include "ua/pki/Certificate.h"

#include <QString>

namespace ua::loadtest {

// The certificate store a step uses: p.pkiDir, or <app data>/loadtest-pki.
QString effectivePkiDir(const LoadParameters& p);
// The newest valid certificate in pkiDir/own/certs; null when there is none yet.
Certificate ownCertificateIn(const QString& pkiDir);
// "the server has probably not trusted the load tester's certificate yet (CN=..., SHA-1 AB:CD:...,
// in <pkiDir>/own/certs): trust it on the server, then run again".
QString untrustedCertificateHint(const QString& pkiDir);
// error with that hint appended when it names Bad_SecurityChecksFailed; error as it is otherwise.
QString withCertificateHint(const QString& error, const QString& pkiDir);

} // namespace ua::loadtest
