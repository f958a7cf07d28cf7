#!/usr/bin/env node
// node-opcua's client accepts reverse connections from our server (OPC 10000-6 7.1.3):
//   node client_reverse.js <listen port, 0: any>
// Listens on 127.0.0.1:<port> (ClientReverseConnect), prints "LISTENING <port>" once it does, reads
// one line "<server EndpointUrl> <server ApplicationUri>" from stdin (the server is started once the
// port is known), and waits for our server's ReverseHello naming them. Then
// twice, one after the other: a Session over the reverse connection, a Read of
// Server_ServerStatus_State (i=2259) and Server_ServerArray (i=2254), the Session closed. The second
// Session needs the spare connection our server dials once the first has received its Hello.
// Prints one JSON object {ok, checks: {name: {ok, detail}}} last; exits 1 on failure.
"use strict";
const log = (...a) => process.stderr.write(a.join(" ") + "\n");
console.log = console.info = console.warn = console.debug = log;
const { OPCUAClient, ClientReverseConnect, MessageSecurityMode, SecurityPolicy, AttributeIds, StatusCodes } = require("node-opcua");

const checks = {};
function check(name, ok, detail) { checks[name] = { ok: !!ok, detail: detail === undefined ? "" : String(detail) }; }

async function oneSession(listener, endpointUrl, serverUri, round) {
    const client = OPCUAClient.create({ endpointMustExist: false, securityMode: MessageSecurityMode.None,
        securityPolicy: SecurityPolicy.None, connectionStrategy: { maxRetry: 0 } });
    const started = Date.now();
    await client.connectReverse(listener, { endpointUrl, serverUri });
    check(`${round}: reverse connection accepted`, true, `after ${Date.now() - started} ms`);
    const session = await client.createSession();
    const [state, servers] = await session.read([
        { nodeId: "i=2259", attributeId: AttributeIds.Value },
        { nodeId: "i=2254", attributeId: AttributeIds.Value }]);
    check(`${round}: ServerStatus.State Running`, state.statusCode === StatusCodes.Good && state.value.value === 0,
          `${state.statusCode.toString()} ${state.value.value}`);
    check(`${round}: ServerArray names the server`, servers.statusCode === StatusCodes.Good &&
          Array.isArray(servers.value.value) && servers.value.value[0] === serverUri, JSON.stringify(servers.value.value));
    await session.close();
    await client.disconnect();
}

function readLine() {
    return new Promise((resolve) => {
        let text = "";
        const onData = (chunk) => {
            text += chunk;
            const end = text.indexOf("\n");
            if (end < 0) return;
            process.stdin.off("data", onData);
            process.stdin.pause();
            resolve(text.slice(0, end).trim());
        };
        process.stdin.setEncoding("utf8");
        process.stdin.on("data", onData);
    });
}

async function main(port) {
    const listener = new ClientReverseConnect(`opc.tcp://127.0.0.1:${port}`);
    await listener.start();
    process.stdout.write(`LISTENING ${listener.listeningPort}\n`);
    const [endpointUrl, serverUri] = (await readLine()).split(/\s+/);
    try {
        await oneSession(listener, endpointUrl, serverUri, "first");
        await oneSession(listener, endpointUrl, serverUri, "second");
    } finally {
        await listener.stop();
    }
}

main(Number(process.argv[2] || 0)).then(() => {
    const ok = Object.values(checks).every((c) => c.ok);
    process.stdout.write(JSON.stringify({ ok, checks }) + "\n");
    process.exit(ok ? 0 : 1);
}, (err) => {
    process.stdout.write(JSON.stringify({ ok: false, checks, error: String(err && err.stack || err) }) + "\n");
    process.exit(1);
});
