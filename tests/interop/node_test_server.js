// What the node-opcua test servers (node_*server.js, tests/clientapp/node_demo_server.js) share:
// node-opcua's logging goes to stderr so that stdout carries only "READY <port> ...", and the server
// runs until stdin closes or SIGTERM, then shuts down and removes its temporary folder.
"use strict";
const fs = require("fs");
const util = require("util");

const toStderr = (...a) => process.stderr.write(util.format(...a) + "\n");

// Sends console output to stderr; call it before requiring node-opcua. Returns the stderr logger.
function logToStderr() {
    console.log = console.info = console.warn = console.debug = console.error = toStderr;
    return toStderr;
}

// Starts server, prints "READY <port>[ <extra>]" and serves until stdin closes or SIGTERM; then calls
// cleanup(), shuts the server down, removes tmpDir and exits with 0.
async function serve(server, { tmpDir, extra = "", cleanup = () => {} } = {}) {
    await server.start();
    const stop = async () => {
        cleanup();
        try { await server.shutdown(0); } catch (_) { /* already down */ }
        if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
        process.exit(0);
    };
    process.stdin.on("end", stop);
    process.stdin.resume();
    process.on("SIGTERM", stop);
    process.stdout.write(`READY ${server.endpoints[0].port}${extra ? " " + extra : ""}\n`);
}

// Runs the script's async main; a failure is printed to stderr with the script's name, exit code 1.
function runMain(name, main) {
    main().catch((err) => {
        toStderr(`${name} failed:`, err && err.stack ? err.stack : err);
        process.exit(1);
    });
}

module.exports = { logToStderr, serve, runMain };
