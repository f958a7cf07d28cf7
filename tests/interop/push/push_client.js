#!/usr/bin/env node
// node-opcua's push certificate management client (node-opcua-server-configuration 2.157.0,
// ClientPushCertificateManagement) against our server (OPC 10000-12 7.8.2 TrustListType, 7.10
// ServerConfigurationType):
//   node push/push_client.js <endpointUrl> <config.json>
// config: {clientCertificate, clientKey, applicationUri, pkiRoot, deviceCertificate (a DER file)}.
// Over SignAndEncrypt (Basic256Sha256) as "admin" (SecurityAdmin): the group's CertificateTypes,
// the trust list read whole and with masks, AddCertificate + ApplyChanges, GetRejectedList, a new
// list written through Open(Write+EraseExisting), Write and CloseAndUpdate + ApplyChanges, an unknown
// thumbprint removed; as "alice" (Operator) AddCertificate is refused.
// node-opcua's own closeAndUpdate() sends two inputs where 7.8.2.5 has one (FileHandle), so that
// call is made by hand here. Prints one JSON object {ok, checks: {name: {ok, detail}}}; exits 1 on
// failure.
"use strict";
const log = (...a) => process.stderr.write(a.join(" ") + "\n");
console.log = console.info = console.warn = console.debug = log;
const fs = require("fs");
const { DataType, StatusCodes } = require("node-opcua-client");
const { OPCUACertificateManager } = require("node-opcua-certificate-manager");
const { ClientPushCertificateManagement } = require("node-opcua-server-configuration");
const { TrustListDataType } = require("node-opcua-types");
const { BinaryStream } = require("node-opcua-binary-stream");
const { check, session, finish } = require("./push_common");

const kCloseAndUpdate = "ns=0;i=12666";
const kTrustList = "ns=0;i=12642";

const hasCertificate = (list, der) => (list || []).some((c) => Buffer.compare(Buffer.from(c), der) === 0);

async function main(url, configFile) {
    const cfg = JSON.parse(fs.readFileSync(configFile, "utf8"));
    const device = fs.readFileSync(cfg.deviceCertificate);
    const manager = new OPCUACertificateManager({ rootFolder: cfg.pkiRoot, automaticallyAcceptUnknownCertificate: true });
    await manager.initialize();
    const admin = await session(url, cfg, manager, "admin", "admin-pw");
    const pm = new ClientPushCertificateManagement(admin.session);

    const formats = await pm.getSupportedPrivateKeyFormats();
    check("SupportedPrivateKeyFormats", Array.isArray(formats) && formats.includes("PEM"), JSON.stringify(formats));
    const group = await pm.getApplicationGroup();
    const types = await group.getCertificateTypes();
    check("CertificateTypes", types.length === 1 && types[0].toString() === "ns=0;i=12560", types.map(String).join(","));
    const tl = await group.getTrustList();

    const before = await tl.readTrustedCertificateList();
    check("read the trust list", before.specifiedLists === 15 && before.trustedCertificates.length >= 1,
          `specifiedLists ${before.specifiedLists}, ${before.trustedCertificates.length} trusted, ${(before.trustedCrls || []).length} CRLs`);
    const masked = await tl.readTrustedCertificateListWithMasks(1);
    check("OpenWithMasks(TrustedCertificates)", masked.specifiedLists === 1 && masked.trustedCertificates.length === before.trustedCertificates.length,
          `specifiedLists ${masked.specifiedLists}`);

    const added = await tl.addCertificate(device, true);
    check("AddCertificate", added.isGood(), added.toString());
    const notYet = await tl.readTrustedCertificateList();
    check("held until ApplyChanges", !hasCertificate(notYet.trustedCertificates, device), `${notYet.trustedCertificates.length} trusted`);
    const applied = await pm.applyChanges();
    check("ApplyChanges", applied.isGood(), applied.toString());
    const after = await tl.readTrustedCertificateList();
    check("added after ApplyChanges", hasCertificate(after.trustedCertificates, device), `${after.trustedCertificates.length} trusted`);
    const again = await pm.applyChanges();
    check("ApplyChanges without a transaction", again.value === StatusCodes.BadNothingToDo.value, again.toString());

    const rejected = await pm.getRejectedList();
    check("GetRejectedList", rejected.statusCode.isGood() && Array.isArray(rejected.certificates),
          `${rejected.statusCode.toString()}, ${(rejected.certificates || []).length} certificates`);

    // A new list written as a file: the device out again (only TrustedCertificates specified).
    const next = new TrustListDataType({
        specifiedLists: 1,
        trustedCertificates: after.trustedCertificates.filter((c) => Buffer.compare(Buffer.from(c), device) !== 0),
    });
    const stream = new BinaryStream(next.binaryStoreSize());
    next.encode(stream);
    const handle = await tl.open(6);
    await tl.write(stream.buffer);
    const cau = await admin.session.call({ objectId: kTrustList, methodId: kCloseAndUpdate,
        inputArguments: [{ dataType: DataType.UInt32, value: handle }] });
    tl.fileHandle = 0;  // closed by CloseAndUpdate
    check("CloseAndUpdate", cau.statusCode.isGood() && cau.outputArguments.length === 1 && cau.outputArguments[0].value === true,
          `${cau.statusCode.toString()} ${JSON.stringify((cau.outputArguments || []).map((v) => v.value))}`);
    const twoArgs = await tl.open(6).then(() => tl.closeAndUpdate(true)).then(() => "Good", (e) => String(e));
    check("node-opcua's two-input closeAndUpdate refused", /BadTooManyArguments/.test(twoArgs), twoArgs);
    if (tl.fileHandle) await tl.close();
    const applied2 = await pm.applyChanges();
    check("ApplyChanges after CloseAndUpdate", applied2.isGood(), applied2.toString());
    const final = await tl.readTrustedCertificateList();
    check("written list applied", !hasCertificate(final.trustedCertificates, device)
          && final.trustedCertificates.length === after.trustedCertificates.length - 1, `${final.trustedCertificates.length} trusted`);

    const unknown = await tl.removeCertificate("00112233445566778899AABBCCDDEEFF00112233", true);
    check("RemoveCertificate of an unknown thumbprint", unknown.value === StatusCodes.BadInvalidArgument.value, unknown.toString());
    await admin.session.close();
    await admin.client.disconnect();

    const alice = await session(url, cfg, manager, "alice", "alice-pw");
    const aliceTl = await new ClientPushCertificateManagement(alice.session).getApplicationGroup().then((g) => g.getTrustList());
    const denied = await aliceTl.addCertificate(device, true);
    check("an Operator is refused", denied.value === StatusCodes.BadUserAccessDenied.value, denied.toString());
    await alice.session.close();
    await alice.client.disconnect();
    await manager.dispose();
}

finish(main(process.argv[2], process.argv[3]));
