// Security policy URIs (OPC 10000-7). Only None is implemented so far; the SecureChannel code
// keeps the policy behind this name so that the security issue only adds policies.
#pragma once

namespace ua {

inline constexpr const char* kSecurityPolicyNone = "http://opcfoundation.org/UA/SecurityPolicy#None";

} // namespace ua
