#!/usr/bin/env node
// node-opcua's client calling our server's Methods (OPC 10000-4 5.11.2 Call):
//   node client_methods.js <endpointUrl>
// Browses Demo/Methods, reads the InputArguments/OutputArguments Properties the way node-opcua
// does (getArgumentDefinition), calls Scale, Sleep and GenerateEvent with good and bad arguments,
// and checks that a Read sent while Sleep runs is answered before Sleep returns (the long Method
// runs off the I/O thread). Prints one JSON object {ok, checks: {name: {ok, detail}}}; exits 1 on
// failure.
"use strict";
const log = (...a) => process.stderr.write(a.join(" ") + "\n");
console.log = console.info = console.warn = console.debug = log;
const opcua = require("node-opcua");
const { OPCUAClient, MessageSecurityMode, SecurityPolicy, AttributeIds, DataType, StatusCodes, Variant, VariantArrayType,
        NodeClass, BrowseDirection } = opcua;

const checks = {};
function check(name, ok, detail) { checks[name] = { ok: !!ok, detail: detail === undefined ? "" : String(detail) }; }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const codes = (list) => (list || []).map((s) => s.name).join(",");

async function main(url) {
    const client = OPCUAClient.create({ endpointMustExist: false, securityMode: MessageSecurityMode.None,
        securityPolicy: SecurityPolicy.None, connectionStrategy: { maxRetry: 0 }, requestedSessionTimeout: 60000 });
    await client.connect(url);
    const session = await client.createSession();
    try {
        const ns = await session.readNamespaceArray();
        const demo = ns.indexOf("urn:ua-workbench:demo");
        const id = (name) => `ns=${demo};s=${name}`;
        const folder = id("Demo.Methods");
        const scale = id("Demo.Methods.Scale"), sleepM = id("Demo.Methods.Sleep"), event = id("Demo.Methods.GenerateEvent");

        // Discovery: the Methods are HasComponent targets of the folder, with NodeClass Method.
        const browsed = await session.browse({ nodeId: folder, browseDirection: BrowseDirection.Forward,
            referenceTypeId: "HasComponent", includeSubtypes: true, nodeClassMask: 0, resultMask: 63 });
        const names = browsed.references.filter((r) => r.nodeClass === NodeClass.Method).map((r) => r.browseName.name).sort();
        check("Browse finds the Methods", names.join(",") === "GenerateEvent,Scale,Sleep", names.join(","));
        const attrs = await session.read([AttributeIds.Executable, AttributeIds.UserExecutable, AttributeIds.NodeClass]
            .map((a) => ({ nodeId: scale, attributeId: a })));
        check("Executable and UserExecutable", attrs[0].value.value === true && attrs[1].value.value === true &&
              attrs[2].value.value === NodeClass.Method, attrs.map((a) => a.value.value).join(","));

        // The Argument Properties as node-opcua reads them.
        const def = await session.getArgumentDefinition(scale);
        const inArgs = def.inputArguments.map((a) => `${a.name}:${a.dataType.toString()}:${a.valueRank}`).join(" ");
        const outArgs = def.outputArguments.map((a) => `${a.name}:${a.dataType.toString()}:${a.valueRank}`).join(" ");
        check("getArgumentDefinition(Scale)", inArgs === "Values:ns=0;i=11:1 Factor:ns=0;i=11:-1" &&
              outArgs === "Scaled:ns=0;i=11:1 Sum:ns=0;i=11:-1", `${inArgs} / ${outArgs}`);
        const evDef = await session.getArgumentDefinition(event);
        check("getArgumentDefinition(GenerateEvent)", evDef.inputArguments.length === 2 && evDef.outputArguments.length === 0 &&
              evDef.inputArguments[1].dataType.toString() === "ns=0;i=5", `${evDef.inputArguments.length} ${evDef.outputArguments.length}`);

        // Scale: an array and a scalar in, an array and a scalar out.
        const values = new Variant({ dataType: DataType.Double, arrayType: VariantArrayType.Array, value: [1.5, -2, 4] });
        const factor = new Variant({ dataType: DataType.Double, value: 2 });
        const ok = await session.call({ objectId: folder, methodId: scale, inputArguments: [values, factor] });
        const out = ok.outputArguments || [];
        check("Scale outputs", ok.statusCode === StatusCodes.Good && out.length === 2 &&
              out[0].arrayType === VariantArrayType.Array && Array.from(out[0].value).join(",") === "3,-4,8" &&
              out[1].dataType === DataType.Double && out[1].value === 7, `${ok.statusCode.name} ${JSON.stringify(out)}`);
        const missing = await session.call({ objectId: folder, methodId: scale, inputArguments: [values] });
        check("Bad_ArgumentsMissing", missing.statusCode === StatusCodes.BadArgumentsMissing, missing.statusCode.name);
        const tooMany = await session.call({ objectId: folder, methodId: scale, inputArguments: [values, factor, factor] });
        check("Bad_TooManyArguments", tooMany.statusCode === StatusCodes.BadTooManyArguments, tooMany.statusCode.name);
        const wrongType = await session.call({ objectId: folder, methodId: scale,
            inputArguments: [values, new Variant({ dataType: DataType.String, value: "2" })] });
        check("Bad_InvalidArgument with Bad_TypeMismatch", wrongType.statusCode === StatusCodes.BadInvalidArgument &&
              codes(wrongType.inputArgumentResults) === "Good,BadTypeMismatch",
              `${wrongType.statusCode.name} ${codes(wrongType.inputArgumentResults)}`);
        const scalarForArray = await session.call({ objectId: folder, methodId: scale, inputArguments: [factor, factor] });
        check("a scalar for an array argument", scalarForArray.statusCode === StatusCodes.BadInvalidArgument &&
              codes(scalarForArray.inputArgumentResults) === "BadTypeMismatch,Good", codes(scalarForArray.inputArgumentResults));
        const wrongObject = await session.call({ objectId: "i=2253", methodId: scale, inputArguments: [values, factor] });
        check("Bad_MethodInvalid on another Object", wrongObject.statusCode === StatusCodes.BadMethodInvalid, wrongObject.statusCode.name);
        const unknown = await session.call({ objectId: id("Demo.Nothing"), methodId: scale, inputArguments: [values, factor] });
        check("Bad_NodeIdUnknown", unknown.statusCode === StatusCodes.BadNodeIdUnknown, unknown.statusCode.name);

        // Sleep runs off the I/O thread: a Read sent meanwhile is answered first.
        const t0 = Date.now();
        let callAt = 0;
        const sleeping = session.call({ objectId: folder, methodId: sleepM,
            inputArguments: [new Variant({ dataType: DataType.UInt32, value: 1500 })] }).then((r) => { callAt = Date.now(); return r; });
        await sleep(100);
        const read = await session.read({ nodeId: "i=2258", attributeId: AttributeIds.Value });
        const readAt = Date.now();
        const slept = await sleeping;
        check("a Read completes while Sleep runs", read.statusCode === StatusCodes.Good && callAt > 0 && readAt < callAt &&
              readAt - t0 < 1000, `read after ${readAt - t0} ms, call after ${callAt - t0} ms`);
        check("Sleep output", slept.statusCode === StatusCodes.Good && slept.outputArguments[0].dataType === DataType.UInt32 &&
              slept.outputArguments[0].value >= 1490 && callAt - t0 >= 1490, `${slept.statusCode.name} ${slept.outputArguments.map((v) => v.value)}`);
        const tooLong = await session.call({ objectId: folder, methodId: sleepM,
            inputArguments: [new Variant({ dataType: DataType.UInt32, value: 60000 })] });
        check("Sleep over 10 s: Bad_OutOfRange", tooLong.statusCode === StatusCodes.BadInvalidArgument &&
              codes(tooLong.inputArgumentResults) === "BadOutOfRange", `${tooLong.statusCode.name} ${codes(tooLong.inputArgumentResults)}`);

        // Two Sleeps and a Scale in one request: one response once both Sleeps finished; they ran in parallel.
        const t1 = Date.now();
        const both = await session.call([
            { objectId: folder, methodId: sleepM, inputArguments: [new Variant({ dataType: DataType.UInt32, value: 800 })] },
            { objectId: folder, methodId: scale, inputArguments: [values, factor] },
            { objectId: folder, methodId: sleepM, inputArguments: [new Variant({ dataType: DataType.UInt32, value: 800 })] }]);
        const took = Date.now() - t1;
        check("several Methods in one Call", both.length === 3 && both.every((r) => r.statusCode === StatusCodes.Good) &&
              both[1].outputArguments[1].value === 7 && took >= 790 && took < 1500, `${both.map((r) => r.statusCode.name)} ${took} ms`);

        // GenerateEvent: the server wires it to its events (tst_node_events checks the event arrives).
        const ev = await session.call({ objectId: folder, methodId: event, inputArguments: [
            new Variant({ dataType: DataType.String, value: "hello" }), new Variant({ dataType: DataType.UInt16, value: 500 })] });
        check("GenerateEvent: Good (wired to the server's events)", ev.statusCode === StatusCodes.Good, ev.statusCode.name);

        // The limit node-opcua would read to split its calls.
        const limit = await session.read({ nodeId: "i=11709", attributeId: AttributeIds.Value });
        check("MaxNodesPerMethodCall", limit.statusCode === StatusCodes.Good && limit.value.value > 0, limit.value.value);
    } finally {
        await session.close();
        await client.disconnect();
    }
}

const url = process.argv[2];
main(url).then(() => {
    const ok = Object.values(checks).every((c) => c.ok);
    process.stdout.write(JSON.stringify({ ok, checks }) + "\n");
    process.exit(ok ? 0 : 1);
}).catch((e) => {
    process.stdout.write(JSON.stringify({ ok: false, checks, error: String(e && e.stack || e) }) + "\n");
    process.exit(1);
});
