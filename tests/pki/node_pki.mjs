// The node-opcua side of tst_pki's interop case, in one run (node-opcua-crypto is slow to load):
//   node node_pki.mjs <interopDir> <ours.der> <theirs.der>
// reads <ours.der> (a certificate UA Workbench created) with node-opcua-crypto and prints what it sees
// as one JSON line; creates a self-signed application certificate with node-opcua-crypto and writes
// it to <theirs.der>.
import { createRequire } from "module";
import fs from "fs";
import { pathToFileURL } from "url";

const [interopDir, oursPath, theirsPath] = process.argv.slice(2);
const require = createRequire(interopDir + "/package.json");
const crypto = await import(pathToFileURL(require.resolve("node-opcua-crypto")).href);

const info = crypto.exploreCertificate(crypto.readCertificate(oursPath));
const ext = info.tbsCertificate.extensions || {};
const san = ext.subjectAltName || {};
const seen = {
    uri: san.uniformResourceIdentifier || [],
    dns: san.dNSName || [],
    ip: san.iPAddress || [],
    keyUsage: ext.keyUsage || {},
    extKeyUsage: ext.extKeyUsage || {},
    cA: ext.basicConstraints ? ext.basicConstraints.cA : null,
    keyLength: info.tbsCertificate.subjectPublicKeyInfo.keyLength,
    signatureAlgorithm: info.signatureAlgorithm.identifier,
};

const key = await crypto.generatePrivateKey(2048);
const { cert } = await crypto.createSelfSignedCertificate({
    privateKey: key,
    subject: "CN=node-opcua peer",
    applicationUri: "urn:node-opcua:pki-test",
    dns: ["nodehost"],
    validity: 30,
    purpose: crypto.CertificatePurpose.ForApplication,
});
fs.writeFileSync(theirsPath, crypto.convertPEMtoDER(cert));
console.log(JSON.stringify(seen));
