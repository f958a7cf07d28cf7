#!/usr/bin/env node
// node-opcua's client reads and writes values of custom DataTypes our server imported from a
// NodeSet2 file (data/custom-types.NodeSet2.xml; issue 29 item 3):
//   node client_custom_types.js <endpointUrl>
// node-opcua reads each DataType's DataTypeDefinition from our server and decodes the values with
// it: an enumeration, a structure (with an enumeration field and an array), a subtype with optional
// fields and an array of structures, and a union. It then builds new values of the structure and
// the union with session.constructExtensionObject (encoded by the same definitions), writes them
// and reads them back. Prints one JSON object {ok, checks: {name: {ok, detail}}}; exits 1 on failure.
"use strict";
const logged = [];
const log = (...a) => { const line = a.join(" "); logged.push(line); process.stderr.write(line + "\n"); };
console.log = console.info = console.warn = console.debug = console.error = log;
const opcua = require("node-opcua");
const { OPCUAClient, MessageSecurityMode, SecurityPolicy, StatusCodes, AttributeIds, DataType } = opcua;

const checks = {};
function check(name, ok, detail) { checks[name] = { ok: !!ok, detail: detail === undefined ? "" : String(detail) }; }
const json = (v) => JSON.stringify(v && v.toJSON ? v.toJSON() : v);

async function main(url) {
    const client = OPCUAClient.create({ endpointMustExist: false, securityMode: MessageSecurityMode.None,
        securityPolicy: SecurityPolicy.None, connectionStrategy: { maxRetry: 0 }, keepSessionAlive: false });
    await client.connect(url);
    const s = await client.createSession();
    const ns = (await s.read({ nodeId: "i=2255", attributeId: AttributeIds.Value })).value.value.indexOf("urn:ua-workbench:test:custom-types");
    check("namespace", ns > 0, `index ${ns}`);
    const id = (n) => `ns=${ns};i=${n}`;
    const read = async (n) => (await s.read({ nodeId: id(n), attributeId: AttributeIds.Value }));

    const mode = await read(5001);
    check("enumeration", mode.statusCode === StatusCodes.Good && mode.value.value === 5, json(mode.value.value));
    const setpoint = (await read(5002)).value.value;
    check("structure", setpoint && setpoint.name === "Oven" && setpoint.value === 180.5 && setpoint.mode === 5 &&
          JSON.stringify(Array.from(setpoint.limits)) === "[50,250]", json(setpoint));
    const recipe = (await read(5003)).value.value;
    check("optional fields and an array of structures", recipe && recipe.title === "Bread" && recipe.comment === undefined &&
          recipe.batch === 42 && recipe.steps.length === 2 && recipe.steps[1].name === "Bake" && recipe.steps[1].mode === 5 &&
          recipe.steps[0].mode === 1, json(recipe));
    const measurement = (await read(5004)).value.value;
    check("union", measurement && measurement.switchField === 2 && Math.abs((measurement.level ?? measurement.Level) - 0.75) < 1e-12,
          json(measurement));

    // Write new values built by node-opcua from the definitions, then read them back.
    const newSetpoint = await s.constructExtensionObject(opcua.resolveNodeId(id(3010)),
        { name: "Kiln", value: -12.25, mode: 1, limits: [1, 2, 3] });
    const w1 = await s.write({ nodeId: id(5002), attributeId: AttributeIds.Value,
                                value: { value: { dataType: DataType.ExtensionObject, value: newSetpoint } } });
    const back = (await read(5002)).value.value;
    check("write a structure", w1 === StatusCodes.Good && back.name === "Kiln" && back.value === -12.25 && back.mode === 1 &&
          JSON.stringify(Array.from(back.limits)) === "[1,2,3]", `${w1.name} ${json(back)}`);
    const newRecipe = await s.constructExtensionObject(opcua.resolveNodeId(id(3020)),
        { title: "Cake", comment: "sweet", steps: [{ name: "Mix", value: 1, mode: 0 }] });
    const w2 = await s.write({ nodeId: id(5003), attributeId: AttributeIds.Value,
                                value: { value: { dataType: DataType.ExtensionObject, value: newRecipe } } });
    const recipeBack = (await read(5003)).value.value;
    check("write optional fields", w2 === StatusCodes.Good && recipeBack.title === "Cake" && recipeBack.comment === "sweet" &&
          recipeBack.batch === undefined && recipeBack.steps.length === 1, `${w2.name} ${json(recipeBack)}`);
    // A Setpoint where a Recipe belongs: Bad_TypeMismatch.
    const wrong = await s.write({ nodeId: id(5003), attributeId: AttributeIds.Value,
                                  value: { value: { dataType: DataType.ExtensionObject, value: newSetpoint } } });
    check("a value of another structure is refused", wrong === StatusCodes.BadTypeMismatch, wrong.name);

    await s.close();
    await client.disconnect();
}

main(process.argv[2]).then(() => {
    const ok = Object.keys(checks).length > 0 && Object.values(checks).every((c) => c.ok);
    process.stdout.write(JSON.stringify({ ok, checks }) + "\n");
    process.exit(ok ? 0 : 1);
}).catch((e) => {
    process.stdout.write(JSON.stringify({ ok: false, checks, error: String(e && e.stack || e), log: logged.slice(-20) }) + "\n");
    process.exit(1);
});
