// The peer side of tests/unit/tst_crypto.cpp: node-opcua-crypto's key derivation and Node's own
// crypto calls on the inputs tst_crypto gives, so our OpenSSL code is compared with another
// implementation's choices of parameters (P_hash loop, key cuts, OAEP hash, PSS salt).
//
//   node crypto_peer.mjs derive <secretHex> <seedHex>
//       P_SHA1 and P_SHA256 (100 bytes) and computeDerivedKeys for Basic256Sha256 and Aes128_Sha256_RsaOaep.
//   node crypto_peer.mjs symmetric <secretHex> <seedHex> <messageHex>
//       With computeDerivedKeys' keys: HMAC-SHA256 and AES-CBC (no padding) of the message.
//   node crypto_peer.mjs rsa <dir>
//       dir/key.pem (PKCS#8 private key), dir/data.bin, and per case dir/<case>_sig.bin, dir/<case>_ct.bin
//       from us: verifies and decrypts them; writes dir/<case>_node_sig.bin and dir/<case>_node_ct.bin
//       for us to verify and decrypt.
// Prints one JSON object on stdout.
import { computeDerivedKeys, makePseudoRandomBuffer } from "node-opcua-crypto";
import crypto from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";

const hex = (b) => Buffer.from(b).toString("hex");
const [command, ...args] = process.argv.slice(2);

// Sizes of the symmetric keys (bytes) as node-opcua's security policies give them.
const symmetric = {
    Basic256Sha256: { signatureLength: 32, signingKeyLength: 32, encryptingKeyLength: 32, algorithm: "aes-256-cbc" },
    Aes128_Sha256_RsaOaep: { signatureLength: 32, signingKeyLength: 32, encryptingKeyLength: 16, algorithm: "aes-128-cbc" },
};
function derivedKeys(secret, seed, name) {
    return computeDerivedKeys(secret, seed, { ...symmetric[name], encryptingBlockSize: 16, sha1or256: "SHA256" });
}

const result = {};
if (command === "derive") {
    const [secret, seed] = args.map((h) => Buffer.from(h, "hex"));
    result.pSha1 = hex(makePseudoRandomBuffer(secret, seed, 100, "SHA1"));
    result.pSha256 = hex(makePseudoRandomBuffer(secret, seed, 100, "SHA256"));
    for (const name of Object.keys(symmetric)) {
        const k = derivedKeys(secret, seed, name);
        result[name] = { signingKey: hex(k.signingKey), encryptingKey: hex(k.encryptingKey), iv: hex(k.initializationVector) };
    }
} else if (command === "symmetric") {
    const [secret, seed, message] = args.map((h) => Buffer.from(h, "hex"));
    for (const name of Object.keys(symmetric)) {
        const k = derivedKeys(secret, seed, name);
        const cipher = crypto.createCipheriv(k.algorithm, k.encryptingKey, k.initializationVector);
        cipher.setAutoPadding(false);
        result[name] = {
            hmac: hex(crypto.createHmac("sha256", k.signingKey).update(message).digest()),
            aesCbc: hex(Buffer.concat([cipher.update(message), cipher.final()])),
        };
    }
} else if (command === "rsa") {
    const dir = args[0];
    const key = crypto.createPrivateKey(readFileSync(`${dir}/key.pem`));
    const keyBytes = key.asymmetricKeyDetails.modulusLength / 8;
    const data = readFileSync(`${dir}/data.bin`);
    const { RSA_PKCS1_PADDING, RSA_PKCS1_PSS_PADDING, RSA_PKCS1_OAEP_PADDING } = crypto.constants;
    const cases = {
        Aes256_Sha256_RsaPss: { hash: "sha256", sign: { padding: RSA_PKCS1_PSS_PADDING, saltLength: 32 }, oaepHash: "sha256", hashBytes: 32 },
        Basic256Sha256: { hash: "sha256", sign: { padding: RSA_PKCS1_PADDING }, oaepHash: "sha1", hashBytes: 20 },
    };
    for (const [name, c] of Object.entries(cases)) {
        const oaep = { key, padding: RSA_PKCS1_OAEP_PADDING, oaepHash: c.oaepHash };
        const ours = readFileSync(`${dir}/${name}_ct.bin`);
        const blocks = [];
        let decrypted = true;
        try {
            for (let i = 0; i < ours.length; i += keyBytes) blocks.push(crypto.privateDecrypt(oaep, ours.subarray(i, i + keyBytes)));
        } catch (e) {
            decrypted = false;
        }
        const verified = crypto.verify(c.hash, data, { key, ...c.sign }, readFileSync(`${dir}/${name}_sig.bin`));
        result[name] = { verified, decrypted: decrypted && Buffer.concat(blocks).equals(data) };

        writeFileSync(`${dir}/${name}_node_sig.bin`, crypto.sign(c.hash, data, { key, ...c.sign }));
        const plainBlock = keyBytes - 2 * c.hashBytes - 2;
        const theirs = [];
        for (let i = 0; i < data.length; i += plainBlock) theirs.push(crypto.publicEncrypt(oaep, data.subarray(i, i + plainBlock)));
        writeFileSync(`${dir}/${name}_node_ct.bin`, Buffer.concat(theirs));
    }
} else {
    console.error(`unknown command ${command}`);
    process.exit(2);
}
console.log(JSON.stringify(result));
