// CertificateStore::trustList and replaceTrustList: the store's four trust folders read and
// written as one OPC 10000-12 TrustListDataType (pki/TrustListContents.h).
#include "ua/pki/CertificateStoreImpl.h"
#include "ua/pki/TrustListChecks.h"

#include <algorithm>
#include <set>
#include <unistd.h>

namespace ua {

using namespace pki_detail;

namespace {

struct ListFolder {
    uint32_t mask;
    const char* folder;
    bool crl;
    std::vector<std::string> TrustListContents::*list;
};

constexpr ListFolder kListFolders[] = {
    {kTrustedCertificates, "trusted/certs", false, &TrustListContents::trustedCertificates},
    {kTrustedCrls, "trusted/crl", true, &TrustListContents::trustedCrls},
    {kIssuerCertificates, "issuers/certs", false, &TrustListContents::issuerCertificates},
    {kIssuerCrls, "issuers/crl", true, &TrustListContents::issuerCrls},
};

} // namespace

TrustListContents CertificateStore::trustList() const {
    TrustListContents t;
    for (const ListFolder& f : kListFolders) {
        if (f.crl) {
            t.*f.list = loadCrls(d->path(f.folder));
        } else {
            for (const Certificate& c : loadCertificates(d->path(f.folder)))
                (t.*f.list).push_back(c.der());
        }
    }
    return t;
}

bool CertificateStore::replaceTrustList(const TrustListContents& contents, uint32_t masks, std::string* error) {
    auto fail = [&](std::string why) {
        if (error) *error = std::move(why);
        return false;
    };
    // Every entry first: nothing is written when one of them is not a certificate or a CRL.
    for (const ListFolder& f : kListFolders) {
        if (!(masks & f.mask)) continue;
        const std::vector<std::string>& list = contents.*f.list;
        for (std::size_t i = 0; i < list.size(); ++i) {
            const bool ok = f.crl ? parsesAsCrl(list[i]) : !Certificate::fromDer(list[i]).isNull();
            if (!ok) return fail(std::string(f.folder) + " entry " + std::to_string(i) + " does not parse");
        }
    }
    std::lock_guard lock(d->filesMutex);
    bool ok = true;
    for (const ListFolder& f : kListFolders) {
        if (!(masks & f.mask)) continue;
        const std::vector<std::string>& list = contents.*f.list;
        const std::string dir = d->path(f.folder);
        if (f.crl) {
            for (const std::string& file : listFiles(dir, {".crl", ".der", ".pem"}))
                if (::unlink(file.c_str()) != 0) ok = fail("cannot delete " + file);
            // Written as given (one file each, named after issuer and SHA-1; no scan of the folder
            // per CRL): the list is what the client sent.
            for (const std::string& der : std::set<std::string>(list.begin(), list.end())) {
                const CrlSummary c = crlSummary(der);
                const std::string name = safeFileName(c.issuerName.substr(0, 80)) + " [" + c.thumbprintHex + "].crl";
                if (!writeFileAtomic(dir + "/" + name, der)) ok = fail("cannot write " + name + " into " + dir);
            }
            continue;
        }
        // One listing and one parse of each file, a set of what is wanted: a list of thousands
        // costs thousands of file operations, not their square.
        std::set<std::string> wanted(list.begin(), list.end());
        std::set<std::string> present;
        for (const std::string& file : listFiles(dir, {".der", ".pem", ".crt", ".cer"})) {
            const Certificate c = Certificate::load(file);
            if (!c.isNull() && wanted.count(c.der())) present.insert(c.der());
            else if (::unlink(file.c_str()) != 0) ok = fail("cannot delete " + file);
        }
        for (const std::string& der : wanted) {
            if (present.count(der)) continue;
            const Certificate c = Certificate::fromDer(der);
            if (!writeFileAtomic(dir + "/" + fileBaseName(c) + ".der", der)) ok = fail("cannot write " + fileBaseName(c) + " into " + dir);
        }
        if (f.mask == kTrustedCertificates) {  // trusted now: no longer among the rejected
            std::lock_guard rejectedLock(d->rejectedMutex);
            for (const std::string& file : listFiles(d->path("rejected/certs"), {".der", ".pem", ".crt", ".cer"}))
                if (wanted.count(Certificate::load(file).der())) ::unlink(file.c_str());
        }
    }
    d->invalidateLists();
    return ok;
}

} // namespace ua
