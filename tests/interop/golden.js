#!/usr/bin/env node
// Golden-bytes interoperability check of UA Workbench's UA Binary codec against node-opcua.
//
//   node golden.js encode            -> prints {"<name>": "<lowercase hex>", ...} (node-opcua's encoding)
//   node golden.js check [--strict]  <- reads {"<name>": "<hex>", ...} on stdin (our encoder's bytes),
//                                       decodes each with node-opcua, re-encodes it, compares with
//                                       node-opcua's encoding of the same fixed value.
//                                       Prints {"<name>": {"ok": bool, "identical": bool, "detail": "..."}}
//                                       and exits 1 if any entry is not ok.
//                                       --strict: an entry is ok only if the input bytes are
//                                       byte-identical to node-opcua's own encoding.
//   node golden.js names             -> prints the JSON array of entry names.
//
// The values of every entry are documented field by field in GOLDEN_VALUES.md.
// Only the individual node-opcua packages are used (the "node-opcua" umbrella prints warnings
// on stdout/stderr at load time and is slow to load).
"use strict";

// stdout carries exactly one JSON object. node-opcua logs warnings with console.log (e.g. for an
// unknown ExtensionObject type id), so everything else written to stdout goes to stderr instead.
const writeResult = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => process.stderr.write(chunk, ...rest);
{
    const util = require("util");
    const toStderr = (...args) => process.stderr.write(util.format(...args) + "\n");
    console.log = console.info = console.debug = console.warn = console.error = console.trace = toStderr;
}

const { BinaryStream, BinaryStreamSizeCalculator } = require("node-opcua-binary-stream");
const { Variant, DataType, VariantArrayType, encodeVariant, decodeVariant } = require("node-opcua-variant");
const { DataValue, TimestampsToReturn, encodeDataValue, decodeDataValue } = require("node-opcua-data-value");
const { encodeExtensionObject, decodeExtensionObject } = require("node-opcua-extension-object");
const { NodeId, NodeIdType, ExpandedNodeId } = require("node-opcua-nodeid");
const { StatusCodes } = require("node-opcua-status-code");
const { LocalizedText, QualifiedName, NodeClass } = require("node-opcua-data-model");
const types = require("node-opcua-types");
const {
    ReadRequest,
    ReadResponse,
    RequestHeader,
    ResponseHeader,
    ReadValueId,
    BrowseResponse,
    BrowseResult,
    ReferenceDescription,
    CreateSessionRequest,
    ApplicationDescription,
    ApplicationType,
    PublishResponse,
    NotificationMessage,
    DataChangeNotification,
    MonitoredItemNotification,
    Argument,
} = types;

// ---------------------------------------------------------------------------------------------
// Fixed values
// ---------------------------------------------------------------------------------------------

const T1 = "2024-01-02T03:04:05.678Z"; // request / response header timestamps, source timestamps
const T2 = "2024-01-02T03:04:06.000Z"; // server timestamps
const T3 = "2024-02-29T23:59:59.999Z"; // publishTime
const d = (iso) => new Date(iso);

const GUID = "72962B91-FA75-4AE6-8D28-B404DC7DAF63";

function bytes(hex) {
    return Buffer.from(hex.replace(/\s+/g, ""), "hex");
}
function range(n, start = 0) {
    return Buffer.from(Array.from({ length: n }, (_, i) => (start + i) & 0xff));
}

function requestHeader(requestHandle) {
    return new RequestHeader({
        // ByteString (opaque) NodeId, namespace 0, 8 bytes 01..08
        authenticationToken: new NodeId(NodeIdType.BYTESTRING, bytes("0102030405060708"), 0),
        timestamp: d(T1),
        requestHandle,
        returnDiagnostics: 0x3ff,
        auditEntryId: "audit-1",
        timeoutHint: 5000,
        additionalHeader: null,
    });
}

function responseHeader(requestHandle, stringTable) {
    return new ResponseHeader({
        timestamp: d(T1),
        requestHandle,
        serviceResult: StatusCodes.Good,
        // serviceDiagnostics left at its default: an empty DiagnosticInfo (encoding mask 0x00)
        stringTable,
        additionalHeader: null,
    });
}

function buildReadRequest() {
    return new ReadRequest({
        requestHeader: requestHeader(42),
        maxAge: 100.5,
        timestampsToReturn: TimestampsToReturn.Both,
        nodesToRead: [
            new ReadValueId({
                nodeId: new NodeId(NodeIdType.NUMERIC, 1000, 1),
                attributeId: 13, // Value
                indexRange: null,
                dataEncoding: null,
            }),
            new ReadValueId({
                nodeId: new NodeId(NodeIdType.STRING, "Demo.String", 2),
                attributeId: 13,
                indexRange: "1:2",
                dataEncoding: new QualifiedName({ namespaceIndex: 0, name: "Default Binary" }),
            }),
        ],
    });
}

function buildReadResponse() {
    return new ReadResponse({
        responseHeader: responseHeader(42, ["a", "b"]),
        results: [
            new DataValue({
                value: new Variant({ dataType: DataType.Int32, value: 1000 }),
                statusCode: StatusCodes.Good,
                sourceTimestamp: d(T1),
                serverTimestamp: d(T2),
            }),
            new DataValue({
                value: new Variant({ dataType: DataType.Double, arrayType: VariantArrayType.Array, value: [1.5, -2.25] }),
            }),
            new DataValue({
                statusCode: StatusCodes.BadNodeIdUnknown,
            }),
        ],
        diagnosticInfos: [],
    });
}

function buildBrowseResponse() {
    return new BrowseResponse({
        responseHeader: responseHeader(43, []),
        results: [
            new BrowseResult({
                statusCode: StatusCodes.Good,
                continuationPoint: bytes("c0ffee0102"),
                references: [
                    new ReferenceDescription({
                        referenceTypeId: new NodeId(NodeIdType.NUMERIC, 35, 0), // Organizes
                        isForward: true,
                        nodeId: new ExpandedNodeId(NodeIdType.NUMERIC, 1000, 1),
                        browseName: new QualifiedName({ namespaceIndex: 1, name: "Var1000" }),
                        displayName: new LocalizedText({ locale: "en", text: "Var 1000" }),
                        nodeClass: NodeClass.Variable, // 2
                        typeDefinition: new ExpandedNodeId(NodeIdType.NUMERIC, 63, 0), // BaseDataVariableType
                    }),
                    new ReferenceDescription({
                        referenceTypeId: new NodeId(NodeIdType.NUMERIC, 47, 0), // HasComponent
                        isForward: false,
                        nodeId: new ExpandedNodeId(NodeIdType.STRING, "Demo.Folder", 2),
                        browseName: new QualifiedName({ namespaceIndex: 2, name: "Folder" }),
                        displayName: new LocalizedText({ locale: null, text: "Demo Folder" }),
                        nodeClass: NodeClass.Object, // 1
                        typeDefinition: new ExpandedNodeId(NodeIdType.NUMERIC, 61, 0), // FolderType
                    }),
                ],
            }),
        ],
        diagnosticInfos: [],
    });
}

function buildCreateSessionRequest() {
    return new CreateSessionRequest({
        requestHeader: requestHeader(1),
        clientDescription: new ApplicationDescription({
            applicationUri: "urn:localhost:UAWorkbench:TestClient",
            productUri: "urn:uaworkbench:test",
            applicationName: new LocalizedText({ locale: "en", text: "Test Client" }),
            applicationType: ApplicationType.Client, // 1
            gatewayServerUri: null,
            discoveryProfileUri: "",
            discoveryUrls: ["opc.tcp://localhost:4840"],
        }),
        serverUri: "urn:localhost:UAWorkbench:Server",
        endpointUrl: "opc.tcp://localhost:4840/ua",
        sessionName: "Session1",
        clientNonce: range(32), // 00 01 .. 1f
        clientCertificate: bytes("3082010203"),
        requestedSessionTimeout: 60000,
        maxResponseMessageSize: 0,
    });
}

function buildPublishResponse() {
    return new PublishResponse({
        responseHeader: responseHeader(44, []),
        subscriptionId: 7,
        availableSequenceNumbers: [1, 2],
        moreNotifications: false,
        notificationMessage: new NotificationMessage({
            sequenceNumber: 2,
            publishTime: d(T3),
            notificationData: [
                new DataChangeNotification({
                    monitoredItems: [
                        new MonitoredItemNotification({
                            clientHandle: 1,
                            value: new DataValue({ value: new Variant({ dataType: DataType.Int32, value: 5 }) }),
                        }),
                        new MonitoredItemNotification({
                            clientHandle: 2,
                            value: new DataValue({
                                value: new Variant({ dataType: DataType.String, value: "x" }),
                                statusCode: StatusCodes.UncertainLastUsableValue, // 0x40900000
                                sourceTimestamp: d(T1),
                            }),
                        }),
                    ],
                    diagnosticInfos: [],
                }),
            ],
        }),
        results: [StatusCodes.Good],
        diagnosticInfos: [],
    });
}

function buildArgument() {
    return new Argument({
        name: "Speed",
        dataType: new NodeId(NodeIdType.NUMERIC, 11, 0), // Double
        valueRank: -1,
        arrayDimensions: [],
        description: new LocalizedText({ locale: "en", text: "Speed in m/s" }),
    });
}

function buildDataValue() {
    return new DataValue({
        value: new Variant({ dataType: DataType.Double, value: 3.25 }),
        statusCode: StatusCodes.Uncertain, // 0x40000000
        sourceTimestamp: d(T1),
        sourcePicoseconds: 50, // node-opcua keeps picoseconds; on the wire: UInt16 5 (units of 10 ps)
        serverTimestamp: d(T2),
        serverPicoseconds: 60, // on the wire: UInt16 6
    });
}

// Scalar variants, one per built-in type.
const scalarVariants = {
    Boolean: () => new Variant({ dataType: DataType.Boolean, value: true }),
    SByte: () => new Variant({ dataType: DataType.SByte, value: -5 }),
    Byte: () => new Variant({ dataType: DataType.Byte, value: 200 }),
    Int16: () => new Variant({ dataType: DataType.Int16, value: -1234 }),
    UInt16: () => new Variant({ dataType: DataType.UInt16, value: 54321 }),
    Int32: () => new Variant({ dataType: DataType.Int32, value: -123456789 }),
    UInt32: () => new Variant({ dataType: DataType.UInt32, value: 3000000000 }),
    // node-opcua represents 64-bit integers as [high32, low32]
    // Int64 -1234567890123456789 = 0xEEDDEF0B82167EEB
    Int64: () => new Variant({ dataType: DataType.Int64, arrayType: VariantArrayType.Scalar, value: [0xeeddef0b, 0x82167eeb] }),
    // UInt64 0x0123456789ABCDEF = 81985529216486895
    UInt64: () => new Variant({ dataType: DataType.UInt64, arrayType: VariantArrayType.Scalar, value: [0x01234567, 0x89abcdef] }),
    Float: () => new Variant({ dataType: DataType.Float, value: 1.25 }),
    Double: () => new Variant({ dataType: DataType.Double, value: -1234.5678 }),
    String: () => new Variant({ dataType: DataType.String, value: "Hello, \u4e16\u754c" }), // "Hello, 世界"
    DateTime: () => new Variant({ dataType: DataType.DateTime, value: d(T1) }),
    Guid: () => new Variant({ dataType: DataType.Guid, value: GUID }),
    ByteString: () => new Variant({ dataType: DataType.ByteString, value: bytes("deadbeef00") }),
    XmlElement: () => new Variant({ dataType: DataType.XmlElement, value: "<a>b</a>" }),
    NodeId: () => new Variant({ dataType: DataType.NodeId, value: new NodeId(NodeIdType.GUID, GUID, 3) }),
    ExpandedNodeId: () =>
        new Variant({
            dataType: DataType.ExpandedNodeId,
            value: new ExpandedNodeId(NodeIdType.NUMERIC, 70000, 0, "urn:test:ns", 2),
        }),
    StatusCode: () => new Variant({ dataType: DataType.StatusCode, value: StatusCodes.BadTimeout }), // 0x800A0000
    QualifiedName: () =>
        new Variant({ dataType: DataType.QualifiedName, value: new QualifiedName({ namespaceIndex: 2, name: "Temperature" }) }),
    LocalizedText: () =>
        new Variant({ dataType: DataType.LocalizedText, value: new LocalizedText({ locale: "de-DE", text: "Temperatur" }) }),
    ExtensionObject: () => new Variant({ dataType: DataType.ExtensionObject, value: buildArgument() }),
};

const arrayVariants = {
    Double: () => new Variant({ dataType: DataType.Double, arrayType: VariantArrayType.Array, value: [1.5, -2.25, 0] }),
    String: () => new Variant({ dataType: DataType.String, arrayType: VariantArrayType.Array, value: ["alpha", "", "\u03b2eta"] }),
    Boolean: () => new Variant({ dataType: DataType.Boolean, arrayType: VariantArrayType.Array, value: [true, false, true] }),
    ByteString: () =>
        new Variant({ dataType: DataType.ByteString, arrayType: VariantArrayType.Array, value: [bytes("0102"), bytes("ff")] }),
};

// ---------------------------------------------------------------------------------------------
// Codecs: how each kind of entry is encoded and decoded with node-opcua
// ---------------------------------------------------------------------------------------------

function sizeOf(obj, encodeFn, useStoreSize) {
    if (useStoreSize && obj && typeof obj.binaryStoreSize === "function") {
        return obj.binaryStoreSize();
    }
    // node-opcua's size calculator runs the same encoder without writing
    const calc = new BinaryStreamSizeCalculator();
    encodeFn(obj, calc);
    return calc.length;
}

// useStoreSize: the encoder writes exactly obj's own binary form, so obj.binaryStoreSize() is its size
function encodeWith(obj, encodeFn, useStoreSize = true) {
    const stream = new BinaryStream(sizeOf(obj, encodeFn, useStoreSize));
    encodeFn(obj, stream);
    if (stream.length !== stream.buffer.length) {
        throw new Error(`size mismatch: binaryStoreSize ${stream.buffer.length}, wrote ${stream.length}`);
    }
    return stream.buffer;
}

const structCodec = (Cls) => ({
    encode: (obj, s) => obj.encode(s),
    decode: (s) => {
        const obj = new Cls();
        obj.decode(s);
        return obj;
    },
});
const variantCodec = {
    encode: (v, s) => encodeVariant(v, s),
    decode: (s) => decodeVariant(s),
};
const dataValueCodec = {
    encode: (dv, s) => encodeDataValue(dv, s),
    decode: (s) => decodeDataValue(s),
};
const extensionObjectCodec = {
    // obj.binaryStoreSize() is the size of the body alone, without type id, encoding byte and length
    wrapsObject: true,
    encode: (obj, s) => encodeExtensionObject(obj, s),
    decode: (s) => decodeExtensionObject(s),
};

// name -> { build, codec }
const entries = {
    ReadRequest: { build: buildReadRequest, codec: structCodec(ReadRequest) },
    ReadResponse: { build: buildReadResponse, codec: structCodec(ReadResponse) },
    BrowseResponse: { build: buildBrowseResponse, codec: structCodec(BrowseResponse) },
    CreateSessionRequest: { build: buildCreateSessionRequest, codec: structCodec(CreateSessionRequest) },
    PublishResponse: { build: buildPublishResponse, codec: structCodec(PublishResponse) },
    VariantMatrix: {
        build: () =>
            new Variant({
                dataType: DataType.Int32,
                arrayType: VariantArrayType.Matrix,
                dimensions: [2, 3],
                value: [1, 2, 3, 4, 5, 6],
            }),
        codec: variantCodec,
    },
    ExtensionObject: { build: buildArgument, codec: extensionObjectCodec },
    DataValue: { build: buildDataValue, codec: dataValueCodec },
};
for (const [t, build] of Object.entries(scalarVariants)) {
    entries[`Variant_${t}`] = { build, codec: variantCodec };
}
for (const [t, build] of Object.entries(arrayVariants)) {
    entries[`VariantArray_${t}`] = { build, codec: variantCodec };
}

function goldenBytes(name) {
    const e = entries[name];
    return encodeWith(e.build(), e.codec.encode, !e.codec.wrapsObject);
}

function encodeAll() {
    const out = {};
    for (const name of Object.keys(entries)) {
        out[name] = goldenBytes(name).toString("hex");
    }
    // Self-consistency: the ExtensionObject entry is the ExtensionObject variant minus its mask byte.
    const v = Buffer.from(out.Variant_ExtensionObject, "hex");
    if (v[0] !== DataType.ExtensionObject || v.subarray(1).toString("hex") !== out.ExtensionObject) {
        throw new Error("ExtensionObject entry is not Variant_ExtensionObject minus its first byte");
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// check
// ---------------------------------------------------------------------------------------------

function firstDiff(a, b) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
        if (a[i] !== b[i]) return i;
    }
    return a.length === b.length ? -1 : n;
}

function around(buf, off) {
    const from = Math.max(0, off - 8);
    return `${buf.subarray(from, off).toString("hex")}[${buf.subarray(off, off + 8).toString("hex")}]`;
}

function checkOne(name, hex, strict) {
    const e = entries[name];
    if (!e) {
        return { ok: false, identical: false, detail: `unknown entry name "${name}"` };
    }
    if (typeof hex !== "string" || !/^([0-9a-fA-F]{2})*$/.test(hex)) {
        return { ok: false, identical: false, detail: "value is not an even-length hex string" };
    }
    const input = Buffer.from(hex, "hex");
    const golden = goldenBytes(name);
    const identical = input.equals(golden);
    let decoded;
    const stream = new BinaryStream(input);
    try {
        decoded = e.codec.decode(stream);
    } catch (err) {
        return {
            ok: false,
            identical,
            detail: `node-opcua failed to decode at offset ${stream.length} of ${input.length}: ${err && err.message}`,
        };
    }
    if (stream.length !== input.length) {
        return {
            ok: false,
            identical,
            detail: `node-opcua decoded only ${stream.length} of ${input.length} bytes (trailing bytes)`,
        };
    }
    let reencoded;
    try {
        reencoded = encodeWith(decoded, e.codec.encode, !e.codec.wrapsObject);
    } catch (err) {
        return { ok: false, identical, detail: `node-opcua failed to re-encode the decoded value: ${err && err.message}` };
    }
    if (!reencoded.equals(golden)) {
        const off = firstDiff(reencoded, golden);
        return {
            ok: false,
            identical,
            detail:
                `decoded value differs from the golden value: re-encoded ${reencoded.length} bytes vs golden ` +
                `${golden.length} bytes, first difference at offset ${off}: got ${around(reencoded, off)} ` +
                `expected ${around(golden, off)}`,
        };
    }
    if (!identical) {
        const off = firstDiff(input, golden);
        const detail =
            `decodes to the golden value but the bytes differ (${input.length} vs ${golden.length} bytes, ` +
            `first difference at offset ${off}: got ${around(input, off)} expected ${around(golden, off)})`;
        return { ok: !strict, identical, detail };
    }
    return { ok: true, identical, detail: `identical (${input.length} bytes)` };
}

function readStdin() {
    return require("fs").readFileSync(0, "utf8");
}

function main(argv) {
    const cmd = argv[0];
    if (cmd === "encode") {
        writeResult(JSON.stringify(encodeAll(), null, 2) + "\n");
        return 0;
    }
    if (cmd === "names") {
        writeResult(JSON.stringify(Object.keys(entries)) + "\n");
        return 0;
    }
    if (cmd === "check") {
        const strict = argv.includes("--strict");
        let input;
        try {
            input = JSON.parse(readStdin());
        } catch (err) {
            writeResult(JSON.stringify({ "": { ok: false, detail: `stdin is not JSON: ${err.message}` } }) + "\n");
            return 1;
        }
        if (input === null || typeof input !== "object" || Array.isArray(input)) {
            writeResult(JSON.stringify({ "": { ok: false, detail: "stdin is not a JSON object" } }) + "\n");
            return 1;
        }
        const result = {};
        let allOk = Object.keys(input).length > 0;
        for (const [name, hex] of Object.entries(input)) {
            let r;
            try {
                r = checkOne(name, hex, strict);
            } catch (err) {
                r = { ok: false, identical: false, detail: `internal error: ${err && err.stack}` };
            }
            result[name] = r;
            if (!r.ok) allOk = false;
        }
        if (Object.keys(input).length === 0) {
            result[""] = { ok: false, detail: "no entries given" };
        }
        writeResult(JSON.stringify(result, null, 2) + "\n");
        return allOk ? 0 : 1;
    }
    process.stderr.write("usage: node golden.js encode | check [--strict] | names\n");
    return 2;
}

process.exitCode = main(process.argv.slice(2));
