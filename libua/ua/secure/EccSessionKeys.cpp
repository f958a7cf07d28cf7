#include "ua/secure/EccSessionKeys.h"

#include "ua/encoding/generated/StatusCodes.h"
#include "ua/secure/AsymmetricCrypto.h"

namespace ua {

namespace {

KeyValuePair pair(std::string_view key, Variant value) {
    KeyValuePair p;
    p.key = QualifiedName{0, String(key)};
    p.value = std::move(value);
    return p;
}

// The value of key (namespace 0) in an AdditionalParametersType header; null when absent.
const Variant* parameter(const ExtensionObject& header, std::string_view key) {
    const AdditionalParametersType* params = header.get<AdditionalParametersType>();
    if (!params) return nullptr;
    for (const KeyValuePair& p : params->parameters)
        if (p.key.namespaceIndex == 0 && p.key.name.view() == key) return &p.value;
    return nullptr;
}

ExtensionObject header(std::string_view policyUri, Variant key) {
    AdditionalParametersType params;
    params.parameters = Array<KeyValuePair>{pair(kEcdhPolicyUriKey, Variant(String(policyUri))), pair(kEcdhKeyKey, std::move(key))};
    return ExtensionObject::make(std::move(params));
}

} // namespace

ExtensionObject ecdhKeyRequest(std::string_view policyUri) {
    AdditionalParametersType params;
    params.parameters = Array<KeyValuePair>{pair(kEcdhPolicyUriKey, Variant(String(policyUri)))};
    return ExtensionObject::make(std::move(params));
}

String requestedEcdhPolicy(const ExtensionObject& additionalHeader) {
    const Variant* v = parameter(additionalHeader, kEcdhPolicyUriKey);
    const String* uri = v ? v->get<String>() : nullptr;
    return uri ? *uri : String();
}

ExtensionObject ecdhKeyResponse(std::string_view policyUri, const EphemeralKeyType& key) {
    return header(policyUri, Variant(ExtensionObject::make(key)));
}

ExtensionObject ecdhKeyRefusal(std::string_view policyUri, StatusCode status) {
    return header(policyUri, Variant(status));
}

StatusCode ecdhKeyOf(const ExtensionObject& additionalHeader, std::string_view policyUri, EphemeralKeyType& key) {
    const Variant* uriValue = parameter(additionalHeader, kEcdhPolicyUriKey);
    const Variant* keyValue = parameter(additionalHeader, kEcdhKeyKey);
    const String* uri = uriValue ? uriValue->get<String>() : nullptr;
    if (!uri || !keyValue) return status::BadSecurityChecksFailed;
    if (uri->view() != policyUri) return status::BadSecurityPolicyRejected;
    if (const StatusCode* s = keyValue->get<StatusCode>()) return s->isBad() ? *s : StatusCode(status::BadSecurityChecksFailed);
    const ExtensionObject* object = keyValue->get<ExtensionObject>();
    const EphemeralKeyType* k = object ? object->get<EphemeralKeyType>() : nullptr;
    if (!k) return status::BadSecurityChecksFailed;
    key = *k;
    return status::Good;
}

StatusCode signEphemeralKey(const SecurityPolicy& policy, EVP_PKEY* privateKey, const crypto::EphemeralKey& key,
                            EphemeralKeyType& out) {
    if (key.isNull() || !policy.isEcc()) return status::BadSecurityChecksFailed;
    std::vector<uint8_t> signature;
    const std::vector<uint8_t>& publicKey = key.publicKey();
    if (const StatusCode s = crypto::asymmetricSign(policy, privateKey, publicKey.data(), publicKey.size(), signature); s.isBad())
        return status::BadSecurityChecksFailed;
    out.publicKey = ByteString(reinterpret_cast<const char*>(publicKey.data()), publicKey.size());
    out.signature = ByteString(reinterpret_cast<const char*>(signature.data()), signature.size());
    return status::Good;
}

bool verifyEphemeralKey(const SecurityPolicy& policy, EVP_PKEY* publicKey, const EphemeralKeyType& key) {
    if (!policy.isEcc() || key.publicKey.size() != policy.nonceLength) return false;
    return crypto::asymmetricVerify(policy, publicKey, reinterpret_cast<const uint8_t*>(key.publicKey.data()),
                                    key.publicKey.size(), reinterpret_cast<const uint8_t*>(key.signature.data()),
                                    key.signature.size());
}

} // namespace ua
