// Makes (or completes) a private CA and a certificate per holder in a directory:
//   node make-dev-pki.js <dir> [--hand-out <dir> [--owner <uid>:<gid>]] <holder>...
// (holders: identity, session, ..., gateway, operator, consumer/<product>). <dir> keeps the CA's
// key and every holder's pair, for this job alone. With --hand-out, each holder also gets
// `<hand-out dir>/<holder>/` (`consumer-<product>` for a consumer), which must exist (the holder's
// own volume): ca.crt, and its own pair as tls.crt and tls.key (0400, given to --owner's user),
// nothing else. For compose, whose one-shot `pki` service runs it before the processes start
// (docs/operations.md, "Certificates").
import {
  chmodSync,
  chownSync,
  existsSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ensureDevPki, type PkiHolder, type TlsFiles } from "./dev-pki.js";

const usage = "usage: make-dev-pki <dir> [--hand-out <dir> [--owner <uid>:<gid>]] <holder>...\n";
const fail = (message: string): never => {
  process.stderr.write(`make-dev-pki: ${message}\n${usage}`);
  process.exit(64);
};

const { values, positionals } = (() => {
  try {
    return parseArgs({
      options: { "hand-out": { type: "string" }, owner: { type: "string" } },
      allowPositionals: true,
    });
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
})();
const [dir, ...holders] = positionals;
if (!dir || holders.length === 0) fail("a directory and at least one holder are needed");
const owner = values.owner === undefined ? undefined : /^(\d+):(\d+)$/.exec(values.owner);
if (owner === null) fail(`--owner takes <uid>:<gid>, not "${values.owner}"`);
if (owner && !values["hand-out"]) fail("--owner goes with --hand-out");

const handOut = values["hand-out"];
const handOutDirOf = (holder: string) => join(handOut ?? "", holder.replaceAll("/", "-"));
for (const holder of handOut ? holders : []) {
  const target = handOutDirOf(holder);
  if (!existsSync(target) || !statSync(target).isDirectory()) {
    fail(`${target} is no directory: mount ${holder}'s own volume there`);
  }
}

const files = await ensureDevPki(dir as string, holders as PkiHolder[]);

/** Writes a file whole, as its holder's, so that a process reading it never sees it half written. */
function put(path: string, content: Buffer, mode: number): void {
  const partial = `${path}.partial`;
  rmSync(partial, { force: true });
  writeFileSync(partial, content);
  chmodSync(partial, mode);
  if (owner) chownSync(partial, Number(owner[1]), Number(owner[2]));
  renameSync(partial, path);
}

for (const holder of handOut ? holders : []) {
  const { caFile, certFile, keyFile } = files[holder] as TlsFiles;
  const target = handOutDirOf(holder);
  put(join(target, "ca.crt"), readFileSync(caFile), 0o444);
  put(join(target, "tls.crt"), readFileSync(certFile), 0o444);
  put(join(target, "tls.key"), readFileSync(keyFile), 0o400);
}
process.stdout.write(
  `certificates of ${holders.join(", ")} in ${dir}${handOut ? `, each holder's own in ${handOut}/<holder>` : ""}\n`,
);
